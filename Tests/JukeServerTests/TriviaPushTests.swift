import Foundation
import JukeCore
import JukeTestSupport
import LiveUpdates
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Synchronization
import Testing
import TuneTrivia
import TuneTriviaAPI

@testable import Back2BackServer
@testable import JukePlatform
@testable import JukeServer
@testable import TuneTriviaServer

/// The pushed messages: each viewer's, spliced from one shared encoding, must be exactly
/// the view the REST API gives them; and changes reach only the screens they change.
@Suite(.timeLimit(.minutes(5))) struct TriviaPushTests {
    typealias S = Components.Schemas

    /// A party game with awkward names and guesses (quotes, backslashes, a newline, emoji,
    /// right-to-left text) and more players than a player's scoreboard lists.
    /// The game's clock: one fixed moment for every command, so that a run slowed by a busy
    /// machine never finds a round's answers closed (they close 33 s after its clip starts).
    static let moment = Date(timeIntervalSince1970: 1_800_000_000)

    static func game() throws -> (game: Game, users: [UserID]) {
        let host = UserID()
        var settings = Settings(title: #"Quiz "night" \ 🎵"#)
        settings.numSongs = 5
        var game = Game(id: SessionID(), host: host, hostName: "Host", hostPlayer: PlayerID(), inviteCode: "ABC123", settings: settings, at: Self.moment)
        for (i, song) in [("Dancing Queen", "ABBA"), ("Halo", "Beyoncé")].enumerated() {
            let round = Round(
                id: RoundID(), track: TrackID(), number: 0, answer: Answer(title: song.0, artist: song.1, album: "Album \(i)", year: 1976), clipStart: 30)
            _ = try game.apply(.addRound(round), by: host, at: Self.moment)
        }
        let names = [#"Ann "the voice""#, #"Bob \ Jr"#, "Cy\nnewline", "Dé 🎧", "سارة"] + (0..<30).map { "Player \($0)" }
        var users: [UserID] = []
        for name in names {
            let user = UserID()
            users.append(user)
            _ = try game.apply(.join(player: PlayerID(), name: name), by: user, at: Self.moment)
        }
        _ = try game.apply(.start, by: host, at: Self.moment)
        for (i, user) in users.enumerated() where i % 2 == 0 {
            let seat = try #require(game.player(forUser: user))
            _ = try game.apply(
                .guess(player: seat.id, artist: i == 0 ? #"ab"ba\"# : "aba", song: i % 4 == 0 ? "Dancing Queen" : "?\t!"), by: user, at: Self.moment)
        }
        return (game, [host] + users)
    }

    @Test func eachViewersMessageIsTheirView() throws {
        var (game, users) = try Self.game()
        let online = Set(users.prefix(4))
        for phase in ["playing", "revealed"] {
            if phase == "revealed" { _ = try game.apply(.reveal, by: users[0], at: Self.moment) }
            let frame = try TriviaFrame(game: game, version: 7)
            for viewer in users + [UserID()] {
                let isHost = viewer == game.host
                let message = try frame.message(for: viewer, online: isHost ? online : nil)
                let pushed = try JSONDecoder().decode(S.TriviaSession.self, from: Data(message.utf8))
                let expected = TriviaMapping.session(game.view(for: viewer), online: isHost ? online : nil)
                #expect(pushed == expected, "\(phase): \(message)")
            }
        }
    }

    @Test func targetsFollowTheEventsAndTravelBetweenServers() throws {
        let ann = PlayerID(), bob = PlayerID()
        // An answer redraws its player at once and the room's "answered" count soon after.
        let guess = PushTargets(events: [.guessAccepted(ann)])
        #expect(guess == PushTargets(players: [ann], everyoneSoon: true))
        #expect(PushTargets(events: [.scored(ann)]) == PushTargets(players: [ann]))
        let join = PushTargets(events: [.playerJoined(bob)])
        #expect(join == PushTargets(players: [bob], everyoneSoon: true))
        #expect(PushTargets(events: [.revealed(1), .scoresChanged]) == PushTargets(everyone: true))
        for targets in [guess, join, PushTargets(everyone: true), PushTargets(players: [ann, bob])] {
            #expect(PushTargets(payload: Substring(targets.payload)) == targets)
        }
        #expect(PushTargets(payload: "P not-an-id") == nil && PushTargets(payload: "") == nil && PushTargets(payload: "X") == nil)
    }

    /// A hub on a clock that moves only when the test says so.
    static func hub(heartbeat: Duration = .seconds(3600), settle: Duration = .seconds(3600), pace: Duration = .zero, pacePerWatcher: Duration = .zero)
        -> (TriviaHub, ManualLiveClock)
    {
        let clock = ManualLiveClock()
        return (TriviaHub(heartbeat: heartbeat, settle: settle, pace: pace, pacePerWatcher: pacePerWatcher, clock: clock), clock)
    }

    /// A guess redraws the guesser's screen and the host's, nobody else's; a reveal redraws
    /// everyone's; a join redraws the joiner's and the host's now and the rest when the
    /// settling time has passed.
    @Test func changesReachOnlyTheScreensTheyChange() async throws {
        var (game, users) = try Self.game()
        let id = game.id
        let (hub, clock) = Self.hub(settle: .seconds(120))
        var boxes: [UserID: TriviaMailbox] = [:]
        for user in users.prefix(4) { boxes[user] = await hub.subscribe(id, user: user, game: game, version: 1) }
        // Everyone gets the current state first.
        for user in users.prefix(4) { #expect(try await Self.next(boxes[user])?.version == 1) }

        let guesser = users[2]
        let seat = try #require(game.player(forUser: guesser))
        let events = try game.apply(.guess(player: seat.id, artist: "x", song: "y"), by: guesser, at: Self.moment)
        await hub.changed(id, game: game, version: 2, targets: PushTargets(events: events), since: .now)
        #expect(try await Self.next(boxes[guesser])?.version == 2)
        #expect(try await Self.next(boxes[users[0]])?.version == 2)  // the host
        // One delivery posts to every mailbox it names at once: the others were not named.
        #expect(try #require(boxes[users[1]]).take().frame == nil)

        let reveal = try game.apply(.reveal, by: users[0], at: Self.moment)
        await hub.changed(id, game: game, version: 3, targets: PushTargets(events: reveal), since: .now)
        for user in users.prefix(4) { #expect(try await Self.next(boxes[user])?.version == 3) }

        // Seats: the joiner and the host at once, the others once the settling time is over.
        let newcomer = UserID()
        boxes[newcomer] = await hub.subscribe(id, user: newcomer, game: game, version: 3)
        _ = try await Self.next(boxes[newcomer])
        let joined = try game.apply(.join(player: PlayerID(), name: "Newcomer"), by: newcomer, at: Self.moment)
        await hub.changed(id, game: game, version: 4, targets: PushTargets(events: joined), since: .now)
        #expect(try await Self.next(boxes[newcomer])?.version == 4)
        #expect(try #require(boxes[users[1]]).take().frame == nil)
        let settled = clock.now + .seconds(120)
        #expect(await clock.waitForSleeper(until: settled))
        clock.advance(by: .seconds(120))
        #expect(try await Self.next(boxes[users[1]])?.version == 4)

        await hub.deleted(id)
        #expect(try #require(boxes[users[1]]).take().deleted)
    }

    /// Answers coming in redraw the host's screen at most once per `pace`, with the newest
    /// state; a reveal goes out at once, without waiting for the pace.
    @Test func answersArePacedAndRevealsAreNot() async throws {
        var (game, users) = try Self.game()
        let (hub, clock) = Self.hub(pace: .seconds(2))
        let host = await hub.subscribe(game.id, user: users[0], game: game, version: 1)
        #expect(try await Self.next(host)?.version == 1)
        var version = 1
        for user in [users[2], users[4], users[6], users[8]] {  // players who have not answered yet
            let seat = try #require(game.player(forUser: user))
            let events = try game.apply(.guess(player: seat.id, artist: "x", song: "y"), by: user, at: Self.moment)
            version += 1
            await hub.changed(game.id, game: game, version: version, targets: PushTargets(events: events), since: .now)
        }
        // The first frame was sent at the start; until the pace has passed, the answers wait.
        let paced = clock.now + .seconds(2)
        #expect(await clock.waitForSleeper(until: paced))
        #expect(host.take().frame == nil)
        clock.advance(by: .seconds(2))
        // Then one frame carries all four, the newest state.
        #expect(try await Self.next(host)?.version == 5)

        // Another answer waits for the pace again; the reveal does not.
        let late = try #require(game.player(forUser: users[10]))
        let answer = try game.apply(.guess(player: late.id, artist: "x", song: "y"), by: users[10], at: Self.moment)
        await hub.changed(game.id, game: game, version: 6, targets: PushTargets(events: answer), since: .now)
        #expect(await clock.waitForSleeper(until: clock.now + .seconds(2)))
        let reveal = try game.apply(.reveal, by: users[0], at: Self.moment)
        await hub.changed(game.id, game: game, version: 7, targets: PushTargets(events: reveal), since: .now)
        #expect(try await Self.next(host)?.version == 7)
    }

    /// The host's pace grows with the room (its frame lists every answer): with no base pace
    /// but a long one per connection, an answer waits that long, and a reveal does not.
    @Test func theHostsPaceGrowsWithTheRoom() async throws {
        var (game, users) = try Self.game()
        let (hub, clock) = Self.hub(pacePerWatcher: .seconds(30))
        let host = await hub.subscribe(game.id, user: users[0], game: game, version: 1)
        let player = await hub.subscribe(game.id, user: users[2], game: game, version: 1)
        #expect(try await Self.next(player)?.version == 1)
        _ = host.take()
        let seat = try #require(game.player(forUser: users[4]))
        let answer = try game.apply(.guess(player: seat.id, artist: "x", song: "y"), by: users[4], at: Self.moment)
        await hub.changed(game.id, game: game, version: 2, targets: PushTargets(events: answer), since: .now)
        // Two connections make a minute's pace.
        #expect(await clock.waitForSleeper(until: clock.now + .seconds(60)))
        #expect(host.take().frame == nil)
        let reveal = try game.apply(.reveal, by: users[0], at: Self.moment)
        await hub.changed(game.id, game: game, version: 3, targets: PushTargets(events: reveal), since: .now)
        #expect(try await Self.next(host)?.version == 3)
    }

    /// Every connection is pinged once in each heartbeat interval, a slice at each tick
    /// (`HeartbeatSchedule`).
    @Test func theHeartbeatReachesEveryone() async throws {
        let (game, users) = try Self.game()
        let (hub, clock) = Self.hub(heartbeat: .seconds(1))
        var boxes: [TriviaMailbox] = []
        for i in 0..<40 { boxes.append(await hub.subscribe(game.id, user: users[i % users.count], game: game, version: 1)) }
        for box in boxes { _ = try await Self.next(box) }
        let tick = HeartbeatSchedule(interval: .seconds(1)).tick
        var beaten = Set<Int>()
        for _ in 0..<HeartbeatSchedule(interval: .seconds(1)).slots {
            #expect(await clock.waitForSleeper(until: clock.now + tick))
            clock.advance(by: tick)
            // Each tick's slice is pinged before the heartbeat sleeps again.
            #expect(await clock.waitForSleeper(until: clock.now + tick))
            for (i, box) in boxes.enumerated() where box.take().heartbeat { beaten.insert(i) }
        }
        #expect(beaten.count == boxes.count)
        await hub.deleted(game.id)
    }

    /// The next frame posted to a mailbox: a state to wait for, with a limit in real time so
    /// that a frame that never comes fails the test instead of hanging it.
    static func next(_ box: TriviaMailbox?, limit: Duration = .seconds(120)) async throws -> TriviaFrame? {
        let box = try #require(box)
        let giveUp = ContinuousClock.now + limit
        // The mailbox is looked at once more after the limit: in a full run this task can wait
        // past the limit for a thread (other suites' CPU-bound work), and a frame that was there
        // all along must not read as missing.
        while true {
            if let frame = box.take().frame { return frame }
            if ContinuousClock.now >= giveUp { return nil }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// The push handler at the end of a WebSocket's pipeline, on an embedded channel.
@Suite(.timeLimit(.minutes(5))) struct TriviaPushHandlerTests {
    typealias S = Components.Schemas

    static func written(_ channel: EmbeddedChannel) throws -> S.TriviaSession? {
        // A message goes out in parts (header, shared head, own tail): all of them, one frame.
        guard var bytes = try channel.readOutbound(as: ByteBuffer.self) else { return nil }
        while var part = try channel.readOutbound(as: ByteBuffer.self) { bytes.writeBuffer(&part) }
        let frame = try WebSocketWireTests.decode(bytes)
        #expect(frame.opcode == .text && frame.fin)
        return try JSONDecoder().decode(S.TriviaSession.self, from: Data(buffer: frame.data))
    }

    @Test func aConnectionThatCannotTakeMoreIsOwedOnlyTheNewestFrame() throws {
        var (game, users) = try TriviaPushTests.game()
        let viewer = users[1]
        let delays = Mutex<[Duration]>([])
        let handler = TriviaPushHandler(user: viewer, delays: { d in delays.withLock { $0.append(d) } })
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(handler)

        let playing = try TriviaFrame(game: game, version: 2)
        handler.push(playing, since: .now, host: nil)
        #expect(try Self.written(channel) == TriviaMapping.session(game.view(for: viewer)))
        #expect(delays.withLock { $0.count } == 1)

        // A phone that stops reading: the frames wait, and only the newest is sent. (A
        // channel tells its pipeline each time its writability changes, as this one does.)
        channel.isWritable = false
        channel.pipeline.fireChannelWritabilityChanged()
        _ = try game.apply(.reveal, by: users[0], at: TriviaPushTests.moment)
        let revealed = try TriviaFrame(game: game, version: 3)
        handler.push(playing, since: .now, host: nil)
        handler.push(revealed, since: .now, host: nil)
        handler.push(playing, since: .now, host: nil)  // older than what is owed: dropped
        #expect(try Self.written(channel) == nil)
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        #expect(try Self.written(channel) == TriviaMapping.session(game.view(for: viewer)))
        #expect(try Self.written(channel) == nil)
        #expect(delays.withLock { $0.count } == 2)

        // An older frame arriving after a newer one was written (two frames' jobs
        // interleaving on an event loop) is dropped; the same version again is written.
        handler.push(playing, since: .now, host: nil)
        #expect(try Self.written(channel) == nil)
        handler.push(revealed, since: .now, host: nil)
        #expect(try Self.written(channel) != nil)

        // A connection that was just written to needs no ping; one that was not gets one.
        // Heartbeats are final pings.
        handler.ping()
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        handler.ping()
        let ping = try WebSocketWireTests.decode(try #require(try channel.readOutbound(as: ByteBuffer.self)))
        #expect(ping.opcode == .ping && ping.fin && ping.data.readableBytes == 0)
        _ = try channel.finish()
    }

    /// A job given with a push (the host's message) runs on its event loop after that loop
    /// has written to all of its sockets, and at once when the push writes nothing there.
    @Test func aJobAfterAPushRunsOnceItsLoopHasWritten() throws {
        let (game, users) = try TriviaPushTests.game()
        let writes = Mutex(0)
        let handler = TriviaPushHandler(user: users[1], delays: { _ in writes.withLock { $0 += 1 } })
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(handler)
        let loop = channel.embeddedEventLoop
        // The same connection many times over: more jobs than one.
        let group = SocketGroup(loop: loop, handlers: Array(repeating: NIOLoopBound(handler, eventLoop: loop), count: TriviaSocket.jobSize * 2 + 1))
        let frame = try TriviaFrame(game: game, version: 2)
        let seen = Mutex<[Int]>([])
        let then = TriviaSocket.Then(loop: loop) { seen.withLock { $0.append(writes.withLock { $0 }) } }
        TriviaSocket.push(frame, since: .now, host: nil, to: [group], pace: .now, then: then)
        loop.run()
        #expect(seen.withLock { $0 } == [TriviaSocket.jobSize * 2 + 1])

        let elsewhere = EmbeddedEventLoop()
        TriviaSocket.push(frame, since: .now, host: nil, to: [group], pace: .now, then: .init(loop: elsewhere) { seen.withLock { $0.append(-1) } })
        elsewhere.run()
        #expect(seen.withLock { $0 } == [TriviaSocket.jobSize * 2 + 1, -1])
        loop.run()
        _ = try channel.finish()
    }

    @Test func itSitsHeadwardOfTheEncoderAndLetsTheRestOfThePipelineWrite() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
        let handler = try TriviaSocket.install(on: channel, user: UserID(), delays: { _ in })
        // A frame written from the end of the pipeline still goes through the encoder.
        try channel.writeOutbound(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: #"{"deleted":true}"#)))
        var bytes = ByteBuffer()
        while var part = try channel.readOutbound(as: ByteBuffer.self) { bytes.writeBuffer(&part) }
        let frame = try WebSocketWireTests.decode(bytes)
        #expect(frame.opcode == .text && String(buffer: frame.data) == #"{"deleted":true}"#)
        // The push handler's own writes skip it: a ping straight from the handler.
        handler.ping()
        #expect(try WebSocketWireTests.decode(try #require(try channel.readOutbound(as: ByteBuffer.self))).opcode == .ping)
        _ = try channel.finish()
    }
}

/// Frames written by hand, read back by NIO's WebSocket decoder.
@Suite(.timeLimit(.minutes(5))) struct WebSocketWireTests {
    static func decode(_ bytes: ByteBuffer) throws -> WebSocketFrame {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)))
        try channel.writeInbound(bytes)
        let frame = try #require(try channel.readInbound(as: WebSocketFrame.self))
        #expect(try channel.readInbound(as: WebSocketFrame.self) == nil)
        _ = try channel.finish()
        return frame
    }

    @Test(arguments: [0, 1, 125, 126, 127, 65_535, 65_536, 200_000])
    func aTextMessageOfAnyLengthIsOneFinalUnmaskedFrame(length: Int) throws {
        let message = String((0..<length).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
        let bytes = WebSocketWire.text(allocator: ByteBufferAllocator(), capacity: 16) { $0.writeString(message) }
        #expect(bytes.readableBytes == length + (length < 126 ? 2 : length <= 65_535 ? 4 : 10))
        let frame = try Self.decode(bytes)
        #expect(frame.fin && frame.opcode == .text && frame.maskKey == nil)
        #expect(String(buffer: frame.data) == message)
    }

    /// A message in three parts (header, a shared head, a tail of its own) is one frame,
    /// whichever length field the two together need; the head is not written to.
    @Test(arguments: [(0, 0), (100, 25), (100, 26), (65_000, 535), (65_000, 536), (200_000, 7)])
    func aMessageWithASharedHeadIsOneFrame(headLength: Int, tailLength: Int) throws {
        let head = ByteBuffer(string: String(repeating: "h", count: headLength))
        let parts = WebSocketWire.text(allocator: ByteBufferAllocator(), tailCapacity: 4) { tail in
            tail.writeString(String(repeating: "t", count: tailLength))
            return head
        }
        #expect(parts.head == head)
        var bytes = parts.header
        var rest = [parts.head, parts.tail]
        for i in rest.indices { bytes.writeBuffer(&rest[i]) }
        let frame = try Self.decode(bytes)
        #expect(frame.fin && frame.opcode == .text && frame.maskKey == nil)
        #expect(String(buffer: frame.data) == String(repeating: "h", count: headLength) + String(repeating: "t", count: tailLength))
    }

    /// The push's hand-written JSON (JSONText.swift), with numbers and text at their edges, decodes to what the
    /// encoder writes for the same view, and the room it measures is enough: each object goes
    /// into a buffer with no room to spare beforehand, after other bytes.
    @Test(arguments: [Int.min, -1, 0, 7, 10, 99, 100, 1_000_000, Int.max])
    func handWrittenJSONDecodesToItsValues(number: Int) throws {
        let every = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) })
        let names = ["", every, #"\"\\""#, "Dé 🎧 سارة", String(repeating: "\u{1}", count: 300), "plain"]
        for name in names {
            let score: [String: Any] = ["total": number, "artists": 0, "songs": number, "trivia": 3]
            var fields: [String: Any] = [
                "id": PlayerID().description, "displayName": name, "isHost": number < 0, "isManual": false, "score": score, "hasGuessed": true,
            ]
            if number != 0 { fields["rank"] = number }
            let player = try JSONDecoder().decode(GameView.PlayerView.self, from: JSONSerialization.data(withJSONObject: fields))
            var buffer = ByteBuffer(string: "x")
            player.writeJSON(into: &buffer)
            #expect(buffer.readString(length: 1) == "x")
            let decoded = try JSONDecoder().decode(Components.Schemas.TriviaPlayer.self, from: Data(buffer.readableBytesView))
            #expect(decoded == TriviaMapping.player(player))
        }
    }

    /// An ID goes into the JSON as its lowercase string, whatever the buffer held before.
    @Test func anIDIsWrittenAsItsString() {
        let id = PlayerID()
        var buffer = ByteBuffer(string: "[")
        buffer.writeJSONString(id)
        #expect(String(buffer: buffer) == "[\"" + id.rawValue.uuidString.lowercased() + "\"")
    }
}

@Suite(.timeLimit(.minutes(5))) struct HeartbeatScheduleTests {
    @Test func ticksComeATenthOfASecondApartAndEachPingsASlice() {
        let standard = HeartbeatSchedule(interval: .seconds(15))
        #expect(standard.slots == 150 && standard.tick == .milliseconds(100))
        #expect(HeartbeatSchedule(interval: .seconds(1)).slots == 10)
        // Shorter than a tick: one slot, the whole interval.
        let short = HeartbeatSchedule(interval: .milliseconds(50))
        #expect(short.slots == 1 && short.tick == .milliseconds(50))

        // Ten thousand connections: no tick pings more than its share, every slot is used.
        var perSlot: [Int: Int] = [:]
        for n in 0..<10_000 { perSlot[standard.slot(forSubscription: n), default: 0] += 1 }
        #expect(perSlot.count == 150)
        #expect(perSlot.values.max() == 67 && perSlot.values.min() == 66)

        // The ticks visit every slot once per interval, then start again.
        var slot = 0
        var visited = Set<Int>()
        for _ in 0..<standard.slots {
            visited.insert(slot)
            slot = standard.slot(after: slot)
        }
        #expect(visited.count == standard.slots && slot == 0)
    }
}

/// A room's sockets kept sorted by event loop (what a reveal is written to) as connections
/// come and go.
@Suite(.timeLimit(.minutes(5))) struct SocketGroupsTests {
    static func socket(on loop: EmbeddedEventLoop) -> TriviaSocket {
        TriviaSocket(eventLoop: loop, handler: NIOLoopBound(TriviaPushHandler(user: UserID(), delays: { _ in }), eventLoop: loop))
    }

    /// The users whose handlers each loop's group holds.
    static func members(_ groups: SocketGroups, on loop: EmbeddedEventLoop) -> Set<UserID> {
        Set(groups.groups.filter { $0.loop === loop }.flatMap { $0.handlers.map(\.value.user) })
    }

    @Test func connectionsJoinTheirLoopsGroupAndLeaveItWithoutDisturbingTheRest() throws {
        let one = EmbeddedEventLoop(), two = EmbeddedEventLoop()
        var groups = SocketGroups()
        var sockets: [UUID: TriviaSocket] = [:]
        let order = (0..<7).map { _ in UUID() }  // even places on loop one, odd on loop two
        for (index, token) in order.enumerated() {
            sockets[token] = Self.socket(on: index % 2 == 0 ? one : two)
            groups.insert(try #require(sockets[token]), for: token)
        }
        #expect(groups.groups.count == 2 && groups.count == 7)
        func expected(on loop: EmbeddedEventLoop) -> Set<UserID> {
            Set(sockets.values.filter { $0.eventLoop === loop }.map(\.handler.value.user))
        }
        #expect(Self.members(groups, on: one) == expected(on: one) && Self.members(groups, on: two) == expected(on: two))

        // The front of loop one's group (its last moves into the gap), then the one that
        // moved, then the middle and the end of loop two's; each twice; then one coming back.
        for token in [order[0], order[6], order[3], order[5]] {
            groups.remove(token)
            groups.remove(token)
            sockets[token] = nil
            #expect(Self.members(groups, on: one) == expected(on: one) && Self.members(groups, on: two) == expected(on: two))
        }
        #expect(groups.count == 3)
        let back = UUID()
        sockets[back] = Self.socket(on: two)
        groups.insert(try #require(sockets[back]), for: back)
        groups.insert(try #require(sockets[back]), for: back)  // the same connection once only
        #expect(groups.count == 4 && groups.groups.flatMap(\.handlers).count == 4)
        #expect(Self.members(groups, on: one) == expected(on: one) && Self.members(groups, on: two) == expected(on: two))
        for token in Array(sockets.keys) { groups.remove(token) }
        #expect(groups.count == 0 && groups.groups.allSatisfy { $0.handlers.isEmpty })
    }
}
