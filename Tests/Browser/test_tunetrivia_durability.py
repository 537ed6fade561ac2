"""TuneTrivia survives `kill -9` of the server in the middle of a round: no accepted guess
and no score is lost, and the game goes on after a restart."""
from conftest import DEMO_TRACKS, JukeServer, request


def test_kill_9_mid_round_loses_nothing(tmp_path):
    server = JukeServer(str(tmp_path))
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

        server = JukeServer(str(tmp_path))
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
