import Foundation
import JukeCore
import Testing

@testable import Back2Back

@Suite("Back2Back's playing device", .timeLimit(.minutes(5)))
struct PlayingDeviceTests {
    /// A session with a song playing on the host's page `tab-1`, which reported 40 s at the
    /// time it last spoke.
    func playing() throws -> (Booth, PlayingDevice, EntryID) {
        var booth = Booth()
        let tab = PlayingDevice(user: booth.host, device: "tab-1")
        try booth.send(.claimPlayer(tab))
        try booth.send(.pick(song(1), by: booth.host))
        let entry = try #require(booth.session.nowPlaying?.id)
        try booth.send(.movePlayhead(entry, position: 40, paused: false, by: tab))
        return (booth, tab, entry)
    }

    @Test func whenThePlayingPageGoesTheSongWaitsWhereItLastSaidItWas() throws {
        var (booth, tab, entry) = try playing()
        booth.now += 120  // the server's clock runs on; nobody hears those two minutes
        try booth.send(.playerLeft(tab))
        #expect(booth.session.player == nil)
        let playhead = try #require(booth.session.playhead)
        #expect(playhead.entry == entry)
        #expect(playhead.paused)
        #expect(playhead.position(at: booth.now + 60) == 40)
    }

    @Test func aPageThatTookOverMeanwhileKeepsTheMusic() throws {
        var (booth, tab, _) = try playing()
        let other = PlayingDevice(user: booth.host, device: "tab-2")
        try booth.send(.claimPlayer(other))
        let before = booth.session
        try booth.send(.playerLeft(tab))
        #expect(booth.session == before)
    }

    @Test func aGuestWhosePagePlaysLeavesAndTheSongWaitsForATakeover() throws {
        var booth = Booth()
        let guest = UserID()
        try booth.send(.join(guest))
        let phone = PlayingDevice(user: guest, device: "phone")
        try booth.send(.claimPlayer(phone))
        try booth.send(.pick(song(1), by: booth.host))
        let entry = try #require(booth.session.nowPlaying?.id)
        try booth.send(.movePlayhead(entry, position: 10, paused: false, by: phone))
        booth.now += 4
        try booth.send(.leave(guest))  // one more second passes in `send`
        #expect(booth.session.player == nil)
        let playhead = try #require(booth.session.playhead)
        #expect(playhead.paused)
        #expect(playhead.position == 15)
    }

    @Test func aGuestMayNotMoveTheSongFromARemote() throws {
        var (booth, _, entry) = try playing()
        let guest = UserID()
        try booth.send(.join(guest))
        #expect(throws: SessionError.self) {
            try booth.send(.movePlayhead(entry, position: 0, paused: true, by: PlayingDevice(user: guest, device: "remote")))
        }
        // What a guest may do from a remote: skip.
        try booth.send(.skip(by: guest))
        #expect(booth.session.history.last?.id == entry)
    }
}
