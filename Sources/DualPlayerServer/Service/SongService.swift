import DualPlayer
import ExternalTools
import Foundation
import JukeCore
import JukePlatform
import Logging
import MediaFormats
import MediaStorage
import Storage

/// The music player's uploads: a listener's own songs, or everyone's when an admin shares one.
struct SongService: Sendable {
    let songs: SongStore
    let uploads: SongUploads
    /// Where an uploaded song's tags are read: off the server's threads.
    let reading: ReadingPool
    let clock: WallClock
    let logger: Logger
    /// Whether this server has ffmpeg to transcode what a browser cannot play.
    let canTranscode: Bool
    /// The server's tool slots: the decode check waits for one (or 503 past the line).
    let tools: ToolSlots
    /// ffmpeg, where the system has it: an upload's audio must decode.
    var ffmpeg = ExternalTool.locate("ffmpeg")

    func songs(visibleTo user: UserID) async throws -> [Song] {
        var list = try await songs.songs(visibleTo: user)
        // A song stored before Juke kept codecs: an MP4's (AAC or ALAC) is read once from the
        // file's header and kept, so the list says rightly whether it plays here.
        for index in list.indices where list[index].format == "mp4" && list[index].codec == nil {
            guard let path = StorageKey(list[index].file).flatMap(uploads.files.localPath), let codec = (try? TagReader.read(path: path))?.codec
            else { continue }
            list[index].codec = codec
            try await songs.setCodec(codec, of: list[index].id)
        }
        return list
    }

    /// A song `user` may play, or not found (another account's is not theirs to know of).
    func song(_ id: SongID, for user: UserID) async throws -> Song {
        guard let song = try await songs.song(id), song.isVisible(to: user) else { throw RuleRefusal.notFound("No such song.") }
        return song
    }

    /// Takes an uploaded song: `user`'s, or everyone's when an admin shares it. The same file
    /// already in that list (the same bytes) is the answer instead, with `created` false.
    func upload(_ body: some AsyncSequence<ArraySlice<UInt8>, any Error>, filename: String, share: Bool, by user: User) async throws
        -> (song: Song, created: Bool)
    {
        guard !share || user.isAdmin else { throw RuleRefusal.forbidden("Only an admin can share a song with everyone.") }
        let (uploads, songs, owner, now) = (self.uploads, self.songs, share ? nil : user.id, clock.now())
        let (song, created) = try await uploads.receiver.take(
            body, filename: filename, reading: reading,
            existing: { try await songs.song(sha256: $0, inListOf: owner) },
            read: { try uploads.read(path: $0, key: $1, filename: $2, owner: owner, now: now) },
            verify: { [ffmpeg, tools] in try await SongUploads.verifyDecodes($0, with: ffmpeg, slots: tools) },
            contentType: "application/octet-stream",
            add: { try await songs.add($0, sha256: $1) })
        logger.info(
            created ? "song uploaded" : "song uploaded again", metadata: ["song": "\(song.id)", "user": "\(user.id)", "shared": "\(share)"])
        return (song, created)
    }

    /// Removes a song and its file: its uploader's to remove, or an admin's.
    func delete(_ id: SongID, by user: User) async throws {
        let song = try await song(id, for: user.id)
        guard song.owner == user.id || user.isAdmin else { throw RuleRefusal.forbidden("Only an admin can remove a song everyone shares.") }
        try await songs.delete(id)
        for key in [StorageKey(song.file), SongUploads.coverKey(of: song)].compactMap({ $0 }) {
            do {
                try await uploads.files.delete(key)
            } catch {
                logger.warning("a removed song's file stays stored", metadata: ["song": "\(song.id)", "error": "\(error)"])
            }
        }
    }
}
