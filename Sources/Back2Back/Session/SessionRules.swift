public import Foundation
public import JukeCore

/// The rules of a back-to-back session (the seed's TurnManager and queue states).
///
/// - A person picks on their turn; their pick replaces the AI's backup, and the turn passes
///   to the AI, which picks a song that will play (`upNext`).
/// - When the AI's own pick starts playing, the turn passes to the next person, and the AI
///   queues a backup (`queuedIfUserSkips`) at once, so the music never stops.
/// - If the backup plays because nobody picked, the turn stays with the person.
/// - Direction changes are offered during a person's turn; taking one replaces the backup
///   with a pick in that direction, and the turn stays with the person.
/// - Every AI request has a task ID; an answer to a superseded task is dropped.
extension DJSession {
    /// The share of a song after which the next one is loaded (the seed's 95%).
    public static let nearEnd = 0.95
    /// The share after which an empty queue is an emergency (the seed's 99% fallback).
    public static let lastCall = 0.99
    /// The most people in one session.
    public static let memberLimit = 20

    /// Applies `event` at `now`; new IDs come from `generator`. Refused events change nothing.
    public mutating func apply(
        _ event: SessionEvent, at now: Date, using generator: inout some RandomNumberGenerator
    ) throws(SessionError) -> [SessionAction] {
        var copy = self
        let actions = try copy.rule(event, at: now, using: &generator)
        if copy != self {
            copy.updatedAt = now
            self = copy
        }
        return actions
    }

    private mutating func rule(
        _ event: SessionEvent, at now: Date, using generator: inout some RandomNumberGenerator
    ) throws(SessionError) -> [SessionAction] {
        switch event {
        case .pick(let song, let user):
            try requireMember(user)
            try requireTurn(of: user)
            if queue.contains(where: { $0.song.track == song.track && $0.status == .upNext }) || nowPlaying?.song.track == song.track {
                throw .conflict("That song is already playing or up next.")
            }
            dropBackups()
            problem = nil
            direction = nil
            directionTask = nil
            queue.append(SessionEntry(id: .random(using: &generator), song: song, pickedBy: .person(user), pickedAt: now, status: .upNext))
            give(.ai, at: now)
            var actions: [SessionAction] = []
            if nowPlaying == nil { actions += startNext(at: now, using: &generator) }
            return actions + ask(.turn, using: &generator)

        case .letAIStart(let user):
            try requireMember(user)
            try requireTurn(of: user)
            guard history.isEmpty, nowPlaying == nil, queue.isEmpty else { throw .conflict("The session has already started.") }
            give(.ai, at: now)
            return ask(.turn, using: &generator)

        case .aiPicked(let task, let song, let rationale, let followedDirection):
            guard let request = aiTask, request.task == task else { return [] }  // superseded: dropped
            aiTask = nil
            if entries.contains(where: { $0.song.track == song.track && $0.status != .played }) {
                // Already queued or playing: ask again rather than play it twice.
                return ask(request.purpose, direction: request.direction, using: &generator)
            }
            problem = nil
            if request.purpose == .backup { dropBackups() }
            let entry = SessionEntry(
                id: .random(using: &generator), song: song, pickedBy: .ai, pickedAt: now,
                status: request.purpose == .turn ? .upNext : .queuedIfUserSkips,
                rationale: String(rationale.prefix(500)), direction: followedDirection ? request.direction?.label : nil)
            queue.append(entry)
            // Remembered when it plays (`startNext`), not now: a backup dropped unplayed
            // must not keep the song out of the persona's picks for a day.
            var actions: [SessionAction] = []
            if nowPlaying == nil {
                actions += startNext(at: now, using: &generator)
            } else if let playing = nowPlaying, nearEndOf == playing.id, queue.count == 1 {
                actions.append(.preload(entry))  // the song playing is near its end already
            }
            return actions

        case .aiFailed(let task, let reason):
            guard aiTask?.task == task else { return [] }
            let purpose = aiTask?.purpose
            aiTask = nil
            problem = String(reason.prefix(300))
            // The AI could not take its turn: it passes to the next person, so someone can
            // keep the music going.
            if purpose == .turn, turn == .ai { give(.person(nextPerson()), at: now) }
            return []

        case .progress(let id, let fraction, let reporter):
            guard fraction.isFinite, (0...1).contains(fraction) else { throw .invalid("fraction", "Progress is a share from 0 to 1.") }
            guard let playing = nowPlaying, playing.id == id, isPlayingDevice(reporter) else { return [] }
            if fraction >= Self.nearEnd, nearEndOf != playing.id {
                nearEndOf = playing.id
                if let next = queue.first { return [.preload(next)] }
                // Nothing queued: whatever is being chosen must come now; if nothing is, a
                // backup is asked for and hurried.
                if let request = aiTask { return [.hurry(request.task)] }
                let actions = ask(turn == .ai ? .turn : .backup, using: &generator)
                return actions + (aiTask.map { [.hurry($0.task)] } ?? [])
            }
            if fraction >= Self.lastCall, queue.isEmpty, let request = aiTask { return [.hurry(request.task)] }
            return []

        case .finished(let id, let reporter):
            // An old or repeated report, or one from a page that only shows the session.
            guard nowPlaying?.id == id, isPlayingDevice(reporter) else { return [] }
            return advance(at: now, skipped: false, using: &generator)

        case .skip(let user):
            try requireMember(user)
            guard nowPlaying != nil else { throw .conflict("Nothing is playing.") }
            return advance(at: now, skipped: true, using: &generator)

        case .skipTo(let id, let user):
            try requireMember(user)
            guard let index = queue.firstIndex(where: { $0.id == id }) else { throw .notFound("That song is not in the queue.") }
            // Passed over, they never play; but nobody's pick vanishes without a trace: a
            // person's pick (or the AI's turn pick) goes into the history as skipped, never
            // started. A backup nobody asked for just goes.
            let passed = queue.prefix(index).filter { $0.status != .queuedIfUserSkips }
            queue.removeFirst(index)
            if var done = nowPlaying {
                done.status = .played
                done.skipped = true
                history.append(done)
                nowPlaying = nil
            }
            for var entry in passed {
                entry.status = .played
                entry.skipped = true
                history.append(entry)
            }
            return startNext(at: now, using: &generator)

        case .directionSuggested(let task, let suggestion):
            guard directionTask == task else { return [] }
            directionTask = nil
            // Never toward where the session already goes ("Switch to Baroque" once taken).
            guard case .person = turn, Direction.isUsableLabel(suggestion.label), !isCurrent(suggestion) else { return [] }
            direction = suggestion
            return []

        case .directionFailed(let task):
            guard directionTask == task else { return [] }
            directionTask = nil
            return []

        case .takeDirection(let user):
            try requireMember(user)
            try requireTurn(of: user)
            guard let chosen = direction else { throw .conflict("No direction change is on offer yet.") }
            dropBackups()
            takenDirection = chosen
            // The new request supersedes any backup being chosen; the turn stays with the person.
            let actions = ask(.backup, direction: chosen, using: &generator)
            return actions + suggestDirection(using: &generator)

        case .join(let user):
            guard !members.contains(user) else { return [] }
            guard members.count < Self.memberLimit else { throw .conflict("This session is full (\(Self.memberLimit) people).") }
            members.append(user)
            return []

        case .leave(let user):
            guard members.contains(user) else { throw .notFound("You are not in this session.") }
            guard user != host else { throw .conflict("The host cannot leave their own session.") }
            let wasTheirTurn = turn == .person(user)
            let next = nextPresent(after: user)
            members.removeAll { $0 == user }
            away?.removeAll { $0 == user }
            if player?.user == user {
                // Their page played until now: the song waits there for a page to take over.
                player = nil
                playerKind = nil
                handover = nil
                if let last = playhead { playhead = Playhead(entry: last.entry, position: last.position(at: now), at: now, paused: true) }
            }
            if wasTheirTurn { give(.person(members.contains(next) ? next : host), at: now) }
            return []

        case .turnExpired(let user, let startedAt):
            // A timer for a turn that has since moved on (a pick, a pass) changes nothing.
            guard turn == .person(user), turnStartedAt == startedAt, let ends = turnEndsAt, now >= ends else { return [] }
            passTurn(from: user, at: now)
            return []

        case .passTurn(let user):
            try requireMember(user)
            guard case .person(let holder) = turn else { throw .conflict("It is the AI's turn; it passes when its song starts.") }
            guard user == host || user == holder else { throw .forbidden("Only the host can pass someone else's turn.") }
            guard nextPresent(after: holder) != holder else { throw .conflict("Nobody else is here to take the turn.") }
            passTurn(from: holder, at: now)
            return []

        case .claimPlayer(let device, let kind):
            try requireMember(device.user)
            guard PlayingDevice.isValidID(device.device) else { throw .invalid("device_id", "A device id has 1 to 64 letters, digits and dashes.") }
            // The same page claiming again (a reload) keeps what was known of it.
            let same = player == device
            player = device
            playerKind = kind ?? (same ? playerKind : nil)
            if !same { handover = nil }
            return []

        case .playerLeft(let device, let present):
            // A page that took over meanwhile (or a reload that came back) keeps the music.
            guard player == device else { return [] }
            if let next = successor(to: device, among: present) {
                // Another page carries on at once, where the song was when the page went (as
                // it last said), playing or paused as it was: the party never waits for a tap.
                handover = Handover(from: device, fromKind: playerKind, at: now)
                player = next.device
                playerKind = next.kind
                if let last = playhead { playhead = Playhead(entry: last.entry, position: last.position, at: now, paused: last.paused) }
                return []
            }
            player = nil
            playerKind = nil
            handover = nil
            // The song waits at the position the player last reported, not where the server's
            // clock has run on to: nobody heard what played after its page went away.
            if let last = playhead { playhead = Playhead(entry: last.entry, position: last.position, at: now, paused: true) }
            return []

        case .movePlayhead(let id, let position, let paused, let by):
            try requireMember(by.user)
            guard let playing = nowPlaying, playing.id == id else { throw .conflict("That song is no longer playing.") }
            guard position.isFinite, position >= 0, position <= max(playing.song.duration, 0) + 5 else {
                throw .invalid("position", "A position is seconds into the song.")
            }
            guard by == player || by.user == host else { throw .forbidden("Only the host, or the device that plays, moves the song.") }
            playhead = Playhead(entry: id, position: position, at: now, paused: paused)
            return []

        case .retryAI:
            // Only a session the AI left stuck: its last pick failed and nothing is being chosen.
            guard problem != nil, aiTask == nil else { return [] }
            if turn == .ai { return ask(.turn, using: &generator) }
            guard !queue.contains(where: { $0.status == .queuedIfUserSkips }) else { return [] }
            return ask(.backup, using: &generator)

        case .presence(let user, let online):
            guard members.contains(user) else { return [] }
            var gone = Set(away ?? [])
            if online { gone.remove(user) } else { gone.insert(user) }
            let list = members.filter(gone.contains)
            away = list.isEmpty ? nil : list
            // Whose turn it was has closed the session everywhere: the next person picks.
            if !online, turn == .person(user), nextPresent(after: user) != user { passTurn(from: user, at: now) }
            return []

        case .changePersona(let id, let user):
            guard user == host else { throw .forbidden("Only the host chooses the DJ persona.") }
            guard id != persona else { return [] }
            persona = id
            var actions: [SessionAction] = []
            // What the old persona was choosing is asked of the new one.
            if let pending = aiTask { actions += ask(pending.purpose, direction: pending.direction, using: &generator) }
            if case .person = turn { actions += suggestDirection(using: &generator) }
            return actions
        }
    }

    // MARK: - Playing

    /// The song playing is done (ended or skipped): it goes to history and the next one plays.
    private mutating func advance(at now: Date, skipped: Bool, using generator: inout some RandomNumberGenerator) -> [SessionAction] {
        if var done = nowPlaying {
            done.status = .played
            done.skipped = skipped
            history.append(done)
        }
        nowPlaying = nil
        return startNext(at: now, using: &generator)
    }

    /// Starts the first queued song and applies the turn rule of its queue state.
    private mutating func startNext(at now: Date, using generator: inout some RandomNumberGenerator) -> [SessionAction] {
        nearEndOf = nil
        playhead = nil
        guard !queue.isEmpty else {
            // Silence. On a person's turn with nothing being chosen, a backup is asked for so
            // the music comes back even if they pick nothing.
            if case .person = turn, aiTask == nil { return ask(.backup, using: &generator) }
            return []
        }
        var entry = queue.removeFirst()
        let status = entry.status
        entry.status = .playing
        entry.startedAt = now
        nowPlaying = entry
        playhead = Playhead(entry: entry.id, position: 0, at: now, paused: false)
        var actions: [SessionAction] = [.play(entry)]
        // The persona's song memory holds what it really played.
        if entry.pickedBy == .ai { actions.append(.remember(entry.song, persona: persona)) }
        if entry.pickedBy == .ai, status == .upNext { give(.person(nextPerson()), at: now) }
        // (A backup that plays leaves the turn with the person; a person's pick leaves it
        // with the AI, whose own pick is still to play.)
        if case .person = turn {
            if aiTask == nil, !queue.contains(where: { $0.status == .queuedIfUserSkips }) { actions += ask(.backup, using: &generator) }
            actions += suggestDirection(using: &generator)  // a new label for each new song
        }
        return actions
    }

    // MARK: - Asking the AI

    private mutating func ask(
        _ purpose: AIRequest.Purpose, direction: Direction? = nil, using generator: inout some RandomNumberGenerator
    ) -> [SessionAction] {
        let request = AIRequest(task: .random(using: &generator), purpose: purpose, direction: direction)
        aiTask = request
        return [.requestPick(request)]
    }

    private mutating func suggestDirection(using generator: inout some RandomNumberGenerator) -> [SessionAction] {
        direction = nil
        let task = AITaskID.random(using: &generator)
        directionTask = task
        return [.requestDirection(task)]
    }

    /// Removes the AI's backup from the queue and forgets a backup being chosen.
    private mutating func dropBackups() {
        queue.removeAll { $0.status == .queuedIfUserSkips }
        if aiTask?.purpose == .backup { aiTask = nil }
    }

    // MARK: - People

    /// Who picks after the last person who picked (the host when nobody has yet).
    func nextPerson() -> UserID {
        let lastPicker = entries.reversed().lazy.compactMap { entry -> UserID? in
            if case .person(let user) = entry.pickedBy { return user }
            return nil
        }.first
        return nextPerson(after: lastPicker)
    }

    private func nextPerson(after user: UserID?) -> UserID { nextPresent(after: user) }

    /// The turn goes to `turn`; a person's turn is timed from now.
    private mutating func give(_ next: Turn, at now: Date) {
        turn = next
        if case .person = next { turnStartedAt = now } else { turnStartedAt = nil }
    }

    /// The person's turn goes to the next person here; the backup stays queued, so the
    /// music goes on whoever picks.
    private mutating func passTurn(from user: UserID, at now: Date) {
        give(.person(nextPresent(after: user)), at: now)
    }

    /// Whether a report comes from the device that plays (any, while none has claimed it).
    private func isPlayingDevice(_ reporter: PlayingDevice?) -> Bool { player == nil || reporter == player }

    private func requireMember(_ user: UserID) throws(SessionError) {
        guard members.contains(user) else { throw .forbidden("Only the people in this session can do that.") }
    }

    private func requireTurn(of user: UserID) throws(SessionError) {
        switch turn {
        case .person(user): return
        case .ai: throw .conflict("It is the AI's turn; yours comes when its song starts.")
        case .person: throw .conflict("It is someone else's turn.")
        }
    }
}
