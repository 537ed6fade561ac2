"""Juke's Subsonic API driven by client libraries nobody here wrote, from PyPI:
py-opensonic (JSON, API key and token auth, form POST to `<method>.view`) and py-sonic
(JSON by form POST too, with the legacy forms: `enc:` password and md5 token). XML, the
default format, is read here with ElementTree. Answers are checked against the library
conftest.py writes (SONGS)."""
import asyncio
import hashlib
import time
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

import libopensonic
import libsonic
import pytest
from libopensonic import errors as oerrors
from libsonic import errors as serrors

from conftest import LYRICS, SONGS, request

NS = {"s": "http://subsonic.org/restapi"}


@pytest.fixture(scope="module")
def keys(juke):
    """An API key and an app password for the admin, and an API key for the guest."""
    status, admin_key = request(juke.base, "POST", "/api/v1/auth/subsonic/api-keys", {"name": "py-opensonic"}, token=juke.admin)
    assert status == 201, admin_key
    status, guest_key = request(juke.base, "POST", "/api/v1/auth/subsonic/api-keys", {"name": "guest"}, token=juke.guest)
    assert status == 201, guest_key
    status, password = request(juke.base, "POST", "/api/v1/auth/subsonic/app-password", token=juke.admin)
    assert status == 201, password
    return {"admin": admin_key["key"], "guest": guest_key["key"], "password": password["password"]}


def opensonic(juke, **auth):
    return libopensonic.Connection("http://127.0.0.1", port=juke.port, **auth)


@pytest.fixture(scope="module")
def by_key(juke, keys):
    conn = opensonic(juke, api_key=keys["admin"])
    yield conn
    conn.cleanup()


def sonic(juke, password, legacy=False):
    return libsonic.Connection("http://127.0.0.1", "admin", password, port=juke.port, legacyAuth=legacy, appName="py-sonic")


def titles(songs):
    return sorted(s.title for s in songs or [])


def test_system_and_auth_with_py_opensonic(juke, keys, by_key):
    assert by_key.ping()
    assert by_key.get_license()["license"]["valid"] is True  # it hands back the whole answer
    names = [e.name for e in by_key.get_open_subsonic_extensions()]
    assert names == ["apiKeyAuthentication", "formPost", "transcodeOffset", "indexBasedQueue", "topSongsByArtistId", "songLyrics", "getPodcastEpisode"]
    assert by_key.token_info().username == "admin"
    user = by_key.get_user("admin")
    assert user.admin_role and user.stream_role
    assert [u.username for u in by_key.get_users()] == ["admin", "guest"]

    # The md5 token of the app password, made by the library itself.
    by_token = opensonic(juke, username="admin", password=keys["password"])
    try:
        assert by_token.ping()
        assert by_token.get_user("admin").username == "admin"
    finally:
        by_token.cleanup()

    wrong = opensonic(juke, api_key="juke_nope")
    try:
        with pytest.raises(oerrors.SonicError):
            wrong.ping()
    finally:
        wrong.cleanup()
    guest = opensonic(juke, api_key=keys["guest"])
    try:
        assert guest.token_info().username == "guest"
        with pytest.raises(oerrors.AuthError):  # 50: not an admin
            guest.get_users()
        with pytest.raises(oerrors.AuthError):
            guest.start_scan()
    finally:
        guest.cleanup()


def test_browsing_with_py_opensonic(juke, by_key):
    # (Not get_music_folders: py-opensonic 10.4.1 iterates `musicFolders` itself, where the spec
    # and every server put the list under `musicFolders.musicFolder`; py-sonic reads it below.)
    artists = by_key.get_artists()
    by_name = {a.name: a for index in artists.index for a in index.artist}
    assert sorted(by_name) == ["Ludwig van Beethoven", "Scott Joplin", "Traditional"]
    assert [i.name for i in artists.index] == ["L", "S", "T"]
    joplin = by_key.get_artist(by_name["Scott Joplin"].id)
    assert [a.name for a in joplin.album] == ["Rags"]
    rags = by_key.get_album(joplin.album[0].id)
    assert rags.song_count == 2 and titles(rags.song) == ["Maple Leaf Rag", "The Entertainer"]
    song = by_key.get_song(rags.song[0].id)
    assert song.album_id == rags.id and song.artist_id == by_name["Scott Joplin"].id and song.suffix == "wav"

    indexes = by_key.get_indexes()
    assert sorted(a.name for i in indexes.index for a in i.artist) == sorted(by_name)
    directory = by_key.get_music_directory(by_name["Ludwig van Beethoven"].id)
    assert [c.title for c in directory.child] == ["Symphonies"] and directory.child[0].is_dir
    album_directory = by_key.get_music_directory(directory.child[0].id)
    assert titles(album_directory.child) == ["Für Elise", "Ode to Joy"]

    genres = {g.value: g for g in by_key.get_genres()}
    assert sorted(genres) == ["Classical", "Folk", "Ragtime"]
    assert genres["Ragtime"].song_count == 2 and genres["Ragtime"].album_count == 1

    with pytest.raises(oerrors.DataNotFoundError):
        by_key.get_album("al-00000000-0000-0000-0000-000000000000")
    with pytest.raises(oerrors.DataNotFoundError):
        by_key.get_song("banana")


def test_lists_and_search_with_py_opensonic(juke, by_key):
    def names(kind, **extra):
        return [a.name for a in by_key.get_album_list2(kind, **extra)]

    assert names("alphabeticalByName") == ["Old Songs", "Rags", "Symphonies"]
    assert names("alphabeticalByArtist") == ["Symphonies", "Rags", "Old Songs"]
    assert names("byYear", from_year=1800, to_year=1850) == ["Symphonies"]
    assert names("byGenre", genre="Folk") == ["Old Songs"]
    assert sorted(names("random")) == ["Old Songs", "Rags", "Symphonies"]
    assert sorted(names("newest")) == ["Old Songs", "Rags", "Symphonies"]
    assert names("starred") == [] and names("frequent") == [] and names("recent") == []
    assert [a.name for a in by_key.get_album_list("alphabeticalByName", size=2, offset=1)] == ["Rags", "Symphonies"]

    assert len(by_key.get_random_songs(size=3)) == 3
    assert titles(by_key.get_songs_by_genre("Classical")) == ["Für Elise", "Ode to Joy"]

    # An empty query pages the whole library, as clients sync it.
    everything = by_key.search3("", song_count=500)
    assert titles(everything.song) == sorted(s[0] for s in SONGS)
    page = by_key.search3("", artist_count=0, album_count=0, song_count=2, song_offset=4)
    assert len(page.song) == 1
    found = by_key.search3("joplin")
    assert titles(found.song) == ["Maple Leaf Rag", "The Entertainer"]
    assert [a.name for a in found.artist] == ["Scott Joplin"] and [a.name for a in found.album] == ["Rags"]
    found2 = by_key.search2("green")
    assert [s.title for s in found2.song] == ["Greensleeves"] and [a.title for a in found2.album] == ["Old Songs"]

    status = by_key.get_scan_status()
    assert status.count == len(SONGS)
    assert by_key.start_scan().count == len(SONGS)


def test_media_with_py_opensonic(juke, by_key):
    song = by_key.search3("entertainer").song[0]

    def read(response):
        return asyncio.run_coroutine_threadsafe(response.read(), by_key._loop).result()

    audio = by_key.stream(song.id)
    assert audio.headers["Content-Type"] == "audio/wav"
    assert len(read(audio)) == song.size
    cover = by_key.get_cover_art(song.cover_art, size=64)
    assert cover.headers["Content-Type"] == "image/png" and read(cover).startswith(b"\x89PNG")
    album_cover = by_key.get_cover_art(song.album_id)
    assert read(album_cover).startswith(b"\x89PNG")
    download = by_key.download(song.id)
    assert "attachment" in download.headers["Content-Disposition"] and len(read(download)) == song.size
    with pytest.raises(oerrors.DataNotFoundError):
        by_key.stream("tr-00000000-0000-0000-0000-000000000000")


@pytest.mark.parametrize("legacy", [False, True], ids=["token", "enc-password"])
def test_legacy_auth_with_py_sonic(juke, keys, legacy):
    conn = sonic(juke, keys["password"], legacy=legacy)
    assert conn.ping()
    assert conn.getLicense()["license"]["valid"] is True
    artists = conn.getArtists()["artists"]["index"]
    names = sorted(a["name"] for i in artists for a in i["artist"])
    assert names == ["Ludwig van Beethoven", "Scott Joplin", "Traditional"]
    albums = conn.getAlbumList2("alphabeticalByName")["albumList2"]["album"]
    assert [a["name"] for a in albums] == ["Old Songs", "Rags", "Symphonies"]
    album = conn.getAlbum(albums[2]["id"])["album"]
    assert sorted(s["title"] for s in album["song"]) == ["Für Elise", "Ode to Joy"]
    song = conn.getSong(album["song"][0]["id"])["song"]
    assert song["albumId"] == albums[2]["id"]
    assert conn.getArtist(album["artistId"])["artist"]["name"] == "Ludwig van Beethoven"
    assert [f["id"] for f in conn.getMusicFolders()["musicFolders"]["musicFolder"]] == [1]
    assert len(conn.getIndexes()["indexes"]["index"]) == 3
    assert conn.getMusicDirectory(album["id"])["directory"]["name"] == "Symphonies"
    assert sorted(g["value"] for g in conn.getGenres()["genres"]["genre"]) == ["Classical", "Folk", "Ragtime"]
    assert len(conn.getRandomSongs(size=2)["randomSongs"]["song"]) == 2
    assert [s["title"] for s in conn.getSongsByGenre("Folk")["songsByGenre"]["song"]] == ["Greensleeves"]
    assert [a["title"] for a in conn.getAlbumList("byGenre", genre="Ragtime")["albumList"]["album"]] == ["Rags"]
    assert [s["title"] for s in conn.search2("greensleeves")["searchResult2"]["song"]] == ["Greensleeves"]
    assert len(conn.search3("")["searchResult3"]["song"]) == len(SONGS)
    assert conn.getUser("admin")["user"]["adminRole"] is True
    assert len(conn.getUsers()["users"]["user"]) == 2
    assert conn.getScanStatus()["scanStatus"]["count"] == len(SONGS)
    assert conn.startScan()["scanStatus"]["count"] == len(SONGS)
    audio = conn.stream(song["id"])
    assert audio.read() and audio.headers["Content-Type"] == "audio/wav"
    assert conn.download(song["id"]).read()
    assert conn.getCoverArt(song["coverArt"]).read().startswith(b"\x89PNG")
    with pytest.raises(serrors.DataNotFoundError):
        conn.getAlbum("al-00000000-0000-0000-0000-000000000000")

    wrong = sonic(juke, "not the app password", legacy=legacy)
    with pytest.raises(serrors.CredentialError):
        wrong.ping()
    # The web password never works for /rest.
    with pytest.raises(serrors.CredentialError):
        sonic(juke, "web password 1", legacy=legacy).ping()


def rest(juke, method, **params):
    query = urllib.parse.urlencode({"v": "1.16.1", "c": "tests", **params})
    with urllib.request.urlopen(f"{juke.base}/rest/{method}?{query}", timeout=30) as r:
        return r.headers["Content-Type"], r.read()


def test_xml_is_the_default_format(juke, keys):
    kind, body = rest(juke, "getAlbumList2", apiKey=keys["admin"], type="alphabeticalByName")
    assert kind.startswith("application/xml")
    root = ET.fromstring(body)
    assert root.tag == "{http://subsonic.org/restapi}subsonic-response"
    assert root.get("status") == "ok" and root.get("version") == "1.16.1" and root.get("type") == "juke" and root.get("openSubsonic") == "true"
    assert [a.get("name") for a in root.findall("s:albumList2/s:album", NS)] == ["Old Songs", "Rags", "Symphonies"]
    _, body = rest(juke, "getGenres", apiKey=keys["admin"])
    assert sorted(g.text for g in ET.fromstring(body).findall("s:genres/s:genre", NS)) == ["Classical", "Folk", "Ragtime"]
    salt = "c19b2d"
    token = hashlib.md5((keys["password"] + salt).encode()).hexdigest()
    _, body = rest(juke, "ping", u="admin", t=token, s=salt)
    assert ET.fromstring(body).get("status") == "ok"


@pytest.mark.parametrize("params, code", [
    ({}, 10),
    ({"u": "admin"}, 10),
    ({"apiKey": "x", "u": "admin"}, 43),
    ({"apiKey": "juke_nope"}, 44),
    ({"u": "admin", "p": "wrong!"}, 40),
])
def test_errors_in_xml(juke, params, code):
    _, body = rest(juke, "ping", **params)
    root = ET.fromstring(body)
    assert root.get("status") == "failed"
    assert root.find("s:error", NS).get("code") == str(code)


def test_bad_input_gets_the_protocols_errors(juke, keys):
    for method, params, code in [
        ("getAlbumList2", {"type": "newest", "size": "100000"}, "0"),
        ("getAlbumList2", {"type": "nope"}, "0"),
        ("getAlbumList2", {}, "10"),
        ("getAlbum", {"id": "al-banana"}, "70"),
        ("search3", {"query": "x", "songCount": "-1"}, "0"),
        ("getSong", {}, "10"),
        ("ping", {"v": "1.99.0"}, "30"),
    ]:
        kind, body = rest(juke, method, apiKey=keys["admin"], **params)
        error = ET.fromstring(body).find("s:error", NS)
        assert error is not None and error.get("code") == code, (method, params, body)


def test_credentials_never_reach_the_log(juke, keys):
    text = juke.log_text()
    assert "/rest/" in text, "the request log is on (debug) and saw the calls"
    assert keys["admin"] not in text and keys["password"] not in text and keys["guest"] not in text


# --- What each account keeps: stars, ratings, plays, playlists, the play queue ----------------
# These run after the lists above (which expect nothing starred or played yet).


def ids_by_title(conn):
    return {s.title: s for s in conn.search3("", song_count=500).song}


def xml_error(juke, method, key, **params):
    _, body = rest(juke, method, apiKey=key, **params)
    error = ET.fromstring(body).find("s:error", NS)
    return None if error is None else error.get("code")


def test_stars_and_ratings_with_py_opensonic(juke, keys, by_key):
    songs = ids_by_title(by_key)
    ode = songs["Ode to Joy"]
    assert by_key.star(sids=[ode.id], album_ids=[ode.album_id], artist_ids=[ode.artist_id])
    assert by_key.set_rating(ode.id, 4) and by_key.set_rating(ode.album_id, 5)
    starred = by_key.get_starred2()
    assert titles(starred.song) == ["Ode to Joy"] and starred.song[0].user_rating == 4 and starred.song[0].starred
    assert [a.name for a in starred.album] == ["Symphonies"] and [a.name for a in starred.artist] == ["Ludwig van Beethoven"]
    folders = by_key.get_starred()
    assert [a.title for a in folders.album] == ["Symphonies"] and titles(folders.song) == ["Ode to Joy"]
    assert [a.name for a in by_key.get_album_list2("starred")] == ["Symphonies"]
    assert [a.name for a in by_key.get_album_list2("highest")] == ["Symphonies"]
    assert by_key.get_song(ode.id).user_rating == 4

    guest = opensonic(juke, api_key=keys["guest"])
    try:  # the guest's stars are the guest's own: none of the admin's
        mine = guest.get_starred2()
        assert not mine.song and not mine.album and not mine.artist
        assert guest.get_song(ode.id).starred is None
    finally:
        guest.cleanup()

    assert by_key.unstar(sids=[ode.id], album_ids=[ode.album_id], artist_ids=[ode.artist_id])
    assert by_key.set_rating(ode.album_id, 0)
    after = by_key.get_starred2()
    assert not after.song and not after.album and by_key.get_album_list2("highest") == []
    with pytest.raises(oerrors.DataNotFoundError):
        by_key.star(sids=["tr-00000000-0000-0000-0000-000000000000"])
    with pytest.raises(oerrors.SonicError):
        by_key.set_rating(ode.id, 9)


def test_plays_and_neighbours_with_py_opensonic(juke, by_key):
    songs = ids_by_title(by_key)
    ode, elise = songs["Ode to Joy"], songs["Für Elise"]
    assert by_key.scrobble(elise.id, submission=False)
    playing = by_key.get_now_playing()
    assert [(p.username, p.title) for p in playing] == [("admin", "Für Elise")]
    assert by_key.scrobble(elise.id) and by_key.scrobble(elise.id, listen_time=int(time.time()))  # seconds; it sends ms
    assert by_key.scrobble(ode.id)
    frequent = by_key.get_album_list2("frequent")
    assert [a.name for a in frequent] == ["Symphonies"] and frequent[0].play_count == 3
    assert [s.title for s in by_key.get_top_songs("Ludwig van Beethoven")] == ["Für Elise", "Ode to Joy"]
    assert by_key.get_top_songs("Nobody Here") == []
    # Similar songs from the catalog: the artist's own, then its genre's and years' (none here).
    assert titles(by_key.get_similar_songs(ode.id, count=10)) == ["Für Elise"]
    assert titles(by_key.get_similar_songs2(ode.artist_id)) == ["Für Elise", "Ode to Joy"]
    assert not by_key.get_artist_info2(ode.artist_id).similar_artist  # no other Classical artist
    assert by_key.get_artist_info(ode.id).biography is None
    assert by_key.get_album_info(ode.album_id).notes is None and by_key.get_album_info2(ode.id).notes is None
    with pytest.raises(oerrors.DataNotFoundError):
        by_key.scrobble("tr-00000000-0000-0000-0000-000000000000")
    with pytest.raises(oerrors.DataNotFoundError):
        by_key.get_artist_info2("ar-00000000-0000-0000-0000-000000000000")


def test_playlists_and_the_play_queue_with_py_opensonic(juke, keys, by_key):
    songs = ids_by_title(by_key)
    ode, green, rag = songs["Ode to Joy"], songs["Greensleeves"], songs["Maple Leaf Rag"]
    assert by_key.create_playlist(name="Road", song_ids=[ode.id, green.id, ode.id])
    [made] = by_key.get_playlists()
    assert made.name == "Road" and made.song_count == 3 and made.owner == "admin" and made.public is False
    assert [s.title for s in by_key.get_playlist(made.id).entry] == ["Ode to Joy", "Greensleeves", "Ode to Joy"]
    assert by_key.update_playlist(made.id, name="Road Trip", comment="Summer", song_ids_to_add=[rag.id], song_indices_to_remove=[0])
    changed = by_key.get_playlist(made.id)
    assert changed.name == "Road Trip" and changed.comment == "Summer"
    assert [s.title for s in changed.entry] == ["Greensleeves", "Ode to Joy", "Maple Leaf Rag"]
    assert by_key.create_playlist(playlist_id=made.id, song_ids=[rag.id])
    assert by_key.get_playlist(made.id).song_count == 1

    guest = opensonic(juke, api_key=keys["guest"])
    try:
        assert guest.get_playlists() == []
        with pytest.raises(oerrors.DataNotFoundError):
            guest.get_playlist(made.id)
        assert xml_error(juke, "updatePlaylist", keys["admin"], playlistId=made.id, public="true") is None
        assert [p.name for p in guest.get_playlists()] == ["Road Trip"]
        with pytest.raises(oerrors.AuthError):  # 50: read-only for anyone but its owner
            guest.delete_playlist(made.id)
    finally:
        guest.cleanup()
    assert by_key.delete_playlist(made.id) and by_key.get_playlists() == []

    assert by_key.save_play_queue([ode.id, green.id, ode.id], current=green.id, position=2500)
    queue = by_key.get_play_queue()
    assert queue.current == green.id and queue.position == 2500 and queue.username == "admin" and queue.changed_by == "py-opensonic"
    assert [s.title for s in queue.entry] == ["Ode to Joy", "Greensleeves", "Ode to Joy"]
    assert by_key.save_play_queue_by_index([ode.id, green.id, ode.id], current_index=2, position=10)
    by_index = by_key.get_play_queue_by_index()
    assert by_index.current_index == 2 and by_index.position == 10 and len(by_index.entry) == 3
    assert xml_error(juke, "savePlayQueueByIndex", keys["admin"], id=ode.id, currentIndex="5") == "10"
    assert xml_error(juke, "savePlayQueue", keys["admin"], id=ode.id, current=green.id) == "0"
    assert by_key.save_play_queue_by_index()  # no songs: cleared
    assert xml_error(juke, "getPlayQueue", keys["guest"]) is None


def test_state_with_py_sonic(juke, keys):
    conn = sonic(juke, keys["password"])
    songs = {s["title"]: s for s in conn.search3("", songCount=500)["searchResult3"]["song"]}
    ode, rag = songs["Ode to Joy"], songs["Maple Leaf Rag"]
    conn.star(sids=[rag["id"]], albumIds=[rag["albumId"]], artistIds=[rag["artistId"]])
    conn.setRating(rag["id"], 3)
    starred = conn.getStarred2()["starred2"]
    assert [s["title"] for s in starred["song"]] == ["Maple Leaf Rag"] and starred["song"][0]["userRating"] == 3
    assert [a["name"] for a in starred["album"]] == ["Rags"] and [a["name"] for a in starred["artist"]] == ["Scott Joplin"]
    assert [a["title"] for a in conn.getStarred()["starred"]["album"]] == ["Rags"]
    conn.unstar(sids=[rag["id"]], albumIds=[rag["albumId"]], artistIds=[rag["artistId"]])
    assert conn.getStarred2()["starred2"]["song"] == []

    conn.scrobble(rag["id"], submission=False)
    # One entry per player: py-sonic's song first, py-opensonic's from before still there.
    assert [e["title"] for e in conn.getNowPlaying()["nowPlaying"]["entry"]] == ["Maple Leaf Rag", "Für Elise"]
    conn.scrobble(rag["id"], listenTime=int(time.time()) - 60)
    assert [s["title"] for s in conn.getTopSongs("Scott Joplin")["topSongs"]["song"]] == ["Maple Leaf Rag", "The Entertainer"]
    assert [s["title"] for s in conn.getSimilarSongs(rag["id"])["similarSongs"]["song"]] == ["The Entertainer"]
    assert sorted(s["title"] for s in conn.getSimilarSongs2(rag["artistId"])["similarSongs2"]["song"]) == ["Maple Leaf Rag", "The Entertainer"]
    assert conn.getArtistInfo(rag["artistId"])["artistInfo"].get("similarArtist", []) == []
    assert conn.getArtistInfo2(rag["id"])["artistInfo2"].get("similarArtist", []) == []
    assert conn.getAlbumInfo(rag["albumId"])["albumInfo"] == {} and conn.getAlbumInfo2(rag["albumId"])["albumInfo"] == {}

    conn.createPlaylist(name="Rags only", songIds=[rag["id"]])
    [listed] = conn.getPlaylists()["playlists"]["playlist"]
    assert listed["name"] == "Rags only" and listed["songCount"] == 1
    conn.updatePlaylist(listed["id"], songIdsToAdd=[ode["id"]], songIndexesToRemove=[0])
    assert [s["title"] for s in conn.getPlaylist(listed["id"])["playlist"]["entry"]] == ["Ode to Joy"]
    conn.deletePlaylist(listed["id"])
    assert conn.getPlaylists()["playlists"]["playlist"] == []

    conn.savePlayQueue([rag["id"], ode["id"]], current=ode["id"], position=700)
    queue = conn.getPlayQueue()["playQueue"]
    assert queue["current"] == ode["id"] and queue["position"] == 700 and queue["changedBy"] == "py-sonic"
    # py-sonic has no index-based queue methods: its own request builder calls them.
    conn._doInfoReq(conn._getRequestWithLists("savePlayQueueByIndex.view", {"id": [rag["id"], rag["id"]]}, {"currentIndex": 1}))
    by_index = conn._doInfoReq(conn._getRequest("getPlayQueueByIndex.view"))["playQueueByIndex"]
    assert by_index["currentIndex"] == 1 and [s["title"] for s in by_index["entry"]] == ["Maple Leaf Rag", "Maple Leaf Rag"]
    with pytest.raises(serrors.DataNotFoundError):
        conn.getPlaylist("pl-00000000-0000-0000-0000-000000000000")


def test_lyrics_with_py_opensonic(juke, by_key):
    songs = ids_by_title(by_key)
    [plain] = by_key.get_lyrics_by_song_id(songs["Greensleeves"].id)
    assert plain.synced is False and plain.lang == "eng" and plain.display_title == "Greensleeves"
    assert [line.value for line in plain.line] == LYRICS["Greensleeves"].split("\n")
    [synced] = by_key.get_lyrics_by_song_id(songs["Maple Leaf Rag"].id)
    assert synced.synced is True and [(line.start, line.value) for line in synced.line] == [(0, "Ragtime"), (1500, "Maple leaf")]
    assert by_key.get_lyrics_by_song_id(songs["Ode to Joy"].id) == []
    found = by_key.get_lyrics(artist="Traditional", title="Greensleeves")
    assert found.value == LYRICS["Greensleeves"] and found.artist == "Traditional" and found.title == "Greensleeves"
    with pytest.raises(oerrors.DataNotFoundError):
        by_key.get_lyrics_by_song_id("tr-00000000-0000-0000-0000-000000000000")


def test_lyrics_with_py_sonic(juke, keys):
    conn = sonic(juke, keys["password"])
    songs = {s["title"]: s for s in conn.search3("", songCount=500)["searchResult3"]["song"]}
    assert conn.getLyrics(artist="Scott Joplin", title="Maple Leaf Rag")["lyrics"]["value"] == "Ragtime\nMaple leaf"
    assert "value" not in conn.getLyrics(artist="Nobody", title="Nothing")["lyrics"]
    # py-sonic has no getLyricsBySongId: its own request builder calls it.
    listed = conn._doInfoReq(conn._getRequest("getLyricsBySongId.view", {"id": songs["Greensleeves"]["id"]}))["lyricsList"]
    assert [line["value"] for line in listed["structuredLyrics"][0]["line"]] == LYRICS["Greensleeves"].split("\n")
