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

    // MARK: - Another page carries on when the playing one goes

    /// A guest's phone plays, 40 s in when it last said so; the host and another guest have
    /// pages open, the guest's since before the host's.
    func guestPlaying() throws -> (Booth, PlayingDevice, UserID, EntryID) {
        var booth = Booth()
        let ben = UserID()
        try booth.send(.join(ben))
        let phone = PlayingDevice(user: ben, device: "ben-phone")
        try booth.send(.claimPlayer(phone, kind: .phone))
        try booth.send(.pick(song(1), by: booth.host))
        let entry = try #require(booth.session.nowPlaying?.id)
        try booth.send(.movePlayhead(entry, position: 40, paused: false, by: phone))
        return (booth, phone, ben, entry)
    }

    @Test func whenThePlayingPageGoesTheHostsOpenPageCarriesOnWhereTheSongWas() throws {
        var (booth, phone, ben, entry) = try guestPlaying()
        let cleo = UserID()
        try booth.send(.join(cleo))
        let start = booth.now
        let present = [
            PresentPage(device: PlayingDevice(user: cleo, device: "cleo-laptop"), since: start - 600, kind: .computer),
            PresentPage(device: PlayingDevice(user: booth.host, device: "host-tab-2"), since: start - 60, kind: .computer),
            PresentPage(device: PlayingDevice(user: booth.host, device: "host-tab-1"), since: start - 300, kind: .tablet),
            PresentPage(device: phone, since: start - 900, kind: .phone),  // still listed: never its own successor
        ]
        booth.now += 3
        try booth.send(.playerLeft(phone, present: present))
        // The host's page open longest plays on, at once, from where the phone last said.
        #expect(booth.session.player == PlayingDevice(user: booth.host, device: "host-tab-1"))
        #expect(booth.session.playerKind == .tablet)
        let playhead = try #require(booth.session.playhead)
        #expect(playhead.entry == entry && !playhead.paused)
        #expect(playhead.position == 40 && playhead.at == booth.now)
        // Every page can say where the music went and why.
        #expect(booth.session.handover == Handover(from: phone, fromKind: .phone, at: booth.now))
        _ = ben
    }

    @Test func withoutTheHostTheMemberPresentLongestCarriesOn() throws {
        var (booth, phone, _, _) = try guestPlaying()
        let cleo = UserID()
        let dan = UserID()
        try booth.send(.join(cleo))
        try booth.send(.join(dan))
        let stranger = PlayingDevice(user: UserID(), device: "not-a-member")
        let present = [
            PresentPage(device: PlayingDevice(user: dan, device: "dan"), since: booth.now - 100),
            PresentPage(device: stranger, since: booth.now - 10_000),  // not in the session: never plays
            PresentPage(device: PlayingDevice(user: cleo, device: "cleo"), since: booth.now - 200, kind: .phone),
        ]
        try booth.send(.playerLeft(phone, present: present))
        #expect(booth.session.player == PlayingDevice(user: cleo, device: "cleo"))
        #expect(booth.session.playerKind == .phone)
        // Play here elsewhere afterwards: the music moves, and the takeover is history.
        try booth.send(.claimPlayer(PlayingDevice(user: dan, device: "dan"), kind: .computer))
        #expect(booth.session.handover == nil && booth.session.playerKind == .computer)
    }

    @Test func aPausedSongStaysPausedOnThePageThatCarriesOn() throws {
        var (booth, phone, _, entry) = try guestPlaying()
        try booth.send(.movePlayhead(entry, position: 50, paused: true, by: phone))
        booth.now += 30
        try booth.send(.playerLeft(phone, present: [PresentPage(device: PlayingDevice(user: booth.host, device: "host"), since: booth.now)]))
        let playhead = try #require(booth.session.playhead)
        #expect(playhead.paused && playhead.position == 50)
        #expect(booth.session.player?.user == booth.host)
    }

    @Test func withNoOtherPageOpenTheSongWaitsForPlayHere() throws {
        var (booth, phone, _, _) = try guestPlaying()
        try booth.send(.playerLeft(phone, present: [PresentPage(device: phone, since: booth.now)]))
        #expect(booth.session.player == nil && booth.session.handover == nil)
        #expect(booth.session.playhead?.paused == true)
    }
}
