"""TuneTrivia survives `kill -9` of the server, on SQLite and on PostgreSQL: in the middle of a
round no accepted guess and no score is lost and the game goes on after a restart; and killed
while requests are in flight, every write that was answered is there afterwards."""
import http.client
import threading
import time

from conftest import DEMO_TRACKS, JukeServer, request


def test_kill_9_mid_round_loses_nothing(tmp_path, database):
    server = JukeServer(str(tmp_path), database=database)
    try:
        host = request(server.base, "POST", "/api/v1/auth/register", {"username": "host9", "password": "host password"})[1]["token"]
        players = [
            request(server.base, "POST", "/api/v1/auth/register", {"username": f"player{i}", "password": "player password"})[1]["token"]
            for i in range(3)
        ]
        server.wait_for_tracks(host, DEMO_TRACKS)
        status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Crash", "num_songs": 5}, token=host)
        assert status == 201, game
        base = f"/api/v1/tunetrivia/sessions/{game['id']}"
        assert request(server.base, "POST", base + "/rounds/auto-generate", token=host)[0] == 200
        for token in players:
            assert request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": game["invite_code"]}, token=token)[0] == 200
        assert request(server.base, "POST", base + "/start", token=host)[0] == 200
        answer = request(server.base, "GET", base + "/state", token=host)[1]["round"]
        # Round 1: two right answers, revealed and scored; round 2: one guess in, then the crash.
        for token in players[:2]:
            assert request(server.base, "POST", base + "/guess", {"artist_guess": answer["artist"], "song_guess": answer["title"]}, token=token)[0] == 202
        assert request(server.base, "POST", base + "/reveal", token=host)[0] == 200
        assert request(server.base, "POST", base + "/next-round", token=host)[0] == 200
        second = request(server.base, "GET", base + "/state", token=host)[1]["round"]
        assert request(server.base, "POST", base + "/guess", {"artist_guess": second["artist"], "song_guess": second["title"]}, token=players[2])[0] == 202
        server.crash()

        server = JukeServer(str(tmp_path), database=database)
        state = request(server.base, "GET", base + "/state", token=host)[1]
        assert state["status"] == "active" and state["current_round"] == 2
        scores = {p["display_name"]: p["total_score"] for p in state["players"] if not p["is_host"]}
        assert sorted(scores.values()) == [0, 2, 2], scores
        # The guess accepted before the crash is still there: a second one is refused.
        assert request(server.base, "POST", base + "/guess", {"artist_guess": "x", "song_guess": "y"}, token=players[2])[0] == 409
        # And the game goes on.
        assert request(server.base, "POST", base + "/reveal", token=host)[0] == 200
        final = request(server.base, "GET", base + "/scoreboard", token=host)[1]
        assert [p["total_score"] for p in final] == [2, 2, 2]
    finally:
        server.stop()


def test_kill_9_with_requests_in_flight_keeps_every_answered_write(tmp_path, database):
    server = JukeServer(str(tmp_path), database=database, demo=False)
    try:
        tokens = [
            request(server.base, "POST", "/api/v1/auth/register", {"username": f"writer{i}", "password": "writer password"})[1]["token"]
            for i in range(6)
        ]
        answered = []  # (token, game id) of every game whose creation was answered 201
        lock = threading.Lock()
        stop = threading.Event()

        def write(token, n):
            # New games as fast as the server answers, until the server is gone: a request
            # cut off by the kill has no answer and proves nothing either way.
            i = 0
            while not stop.is_set():
                i += 1
                try:
                    status, body = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": f"w{n}-{i}", "num_songs": 5}, token=token)
                except (OSError, http.client.HTTPException):
                    # No answer, or one cut off mid-body (IncompleteRead): the server is gone.
                    return
                if status == 201:
                    with lock:
                        answered.append((token, body["id"]))

        writers = [threading.Thread(target=write, args=(token, n)) for n, token in enumerate(tokens)]
        for thread in writers:
            thread.start()
        # Kill once writes are flowing (a state, not a time: at least 30 answered).
        deadline = time.time() + 60
        while time.time() < deadline:
            with lock:
                if len(answered) >= 30:
                    break
            time.sleep(0.01)
        server.crash()
        stop.set()
        for thread in writers:
            thread.join(timeout=30)
        assert len(answered) >= 30, "the writes did not flow"

        server = JukeServer(str(tmp_path), database=database, demo=False)
        for token, game in answered:
            status, body = request(server.base, "GET", f"/api/v1/tunetrivia/sessions/{game}", token=token)
            assert status == 200, (game, status, body)
    finally:
        server.stop()
