"""Juke's own trivia in a real game on the demo library (issue 39: three rounds of five asked
"On which album is X?"): a 15-song game with trivia on gets questions of many kinds, never the
same kind twice in a row, each right by the library's tags as the catalog serves them."""
import time

from conftest import request

# The kinds by their wording (Sources/TuneTrivia/Rules/LibraryTrivia*.swift).
KINDS = [
    ("In which year", "year"), ("In which decade", "era"), ("In which century", "era"), ("On which album", "album"),
    ("Which song opens the album", "opener"), ("Which track is", "track_number"), ("Who composed", "composer"),
    ("Which of these songs is also by", "other_song"), ("Which of these is also a traditional song", "other_song"),
    ("Which genre", "genre"), ("Which of these songs is the oldest", "oldest"), ("How long", "length"),
]


def kind(question):
    if "\" is also on \"" in question:
        return "album_neighbour"
    return next((k for prefix, k in KINDS if question.startswith(prefix)), None)


def ordinal(n):
    return f"{n}{'th' if 11 <= n % 100 <= 13 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def library(server, token):
    tracks, offset = [], 0
    while True:
        status, page = request(server.base, "GET", f"/api/v1/catalog/tracks?limit=100&offset={offset}", token=token)
        assert status == 200, page
        tracks += page["items"]
        offset += len(page["items"])
        if not page["items"] or offset >= page["total"]:
            return tracks


def right(question, options, answer, track, tracks):
    """Nil when the answer is the library's, else what is wrong."""
    k = kind(question)
    album = [t for t in tracks if t["album"] == track["album"] and t["album_artist"] == track["album_artist"]]
    if k == "year":
        return None if answer == str(track["year"]) else f"year {answer} of {track}"
    if k == "era":
        y = track["year"]
        return None if answer == (f"{ordinal((y - 1) // 100 + 1)} century" if y < 1900 else f"{y // 10 * 10}s") else f"era {answer} of {y}"
    if k == "album":
        return None if answer == track["album"] else f"album {answer}"
    if k == "opener":
        first = [t["title"] for t in album if t.get("track_number") == 1]
        return None if [answer] == first and all(any(t["title"] == o for t in album) for o in options) else f"opener {answer} {first}"
    if k == "track_number":
        return None if answer == f"Track {track.get('track_number')}" else f"track {answer}"
    if k == "composer":
        return None if answer == track.get("composer") else f"composer {answer}"
    if k == "genre":
        return None if answer == track.get("genre") else f"genre {answer}"
    if k == "other_song":
        mine = [t["title"] for t in tracks if t["artist"] == track["artist"] and t["title"] != track["title"]]
        others = [o for o in options if o != answer]
        ok = answer in mine and not any(o in mine for o in others)
        return None if ok else f"other song {answer}"
    if k == "album_neighbour":
        named = [t for t in album if question.startswith(f"\"{t['title']}\"")]
        return None if len(named) == 1 and answer == named[0]["artist"] != track["artist"] else f"neighbour {answer}"
    if k == "oldest":
        years = {o: [t["year"] for t in tracks if t["title"] == o] for o in options}
        ok = track["title"] in options and all(len(set(v)) == 1 for v in years.values())
        return None if ok and answer == min(options, key=lambda o: years[o][0]) else f"oldest {answer} {years}"
    if k == "length":
        s = round(track["duration"])
        return None if answer == f"{s // 60}:{s % 60:02d}" else f"length {answer}"
    return f"unknown kind: {question}"


def test_a_game_of_fifteen_songs_asks_many_kinds_never_twice_in_a_row_and_each_is_right(server, admin):
    token = admin["token"]
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions",
                           {"title": "Quiz of kinds", "num_songs": 15, "trivia_enabled": True}, token=token)
    assert status == 201, game
    base = f"/api/v1/tunetrivia/sessions/{game['id']}"
    status, picked = request(server.base, "POST", base + "/rounds/auto-generate", token=token)
    assert status == 200 and picked["added"] == 15, picked
    # The questions are written in the background, round after round.
    deadline = time.time() + 120
    while True:
        status, rounds = request(server.base, "GET", base + "/rounds", token=token)
        assert status == 200, rounds
        if all(r.get("trivia_question") for r in rounds) or time.time() > deadline:
            break
        time.sleep(0.3)
    assert all(r.get("trivia_question") for r in rounds), [r.get("trivia_question") for r in rounds]
    kinds = [kind(r["trivia_question"]) for r in rounds]
    print(kinds)
    assert None not in kinds, [r["trivia_question"] for r in rounds]
    assert len(set(kinds)) >= 5, kinds
    assert all(a != b for a, b in zip(kinds, kinds[1:])), kinds
    tracks = library(server, token)
    by_id = {t["id"]: t for t in tracks}
    wrong = [right(r["trivia_question"], r["trivia_options"], r["trivia_answer"], by_id[r["track_id"]], tracks) for r in rounds]
    assert [w for w in wrong if w] == [], [r["trivia_question"] for r in rounds]
