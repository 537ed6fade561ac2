import Foundation
import RunBeat

/// What a runner's page sends over the workout's live connection: samples (each numbered
/// from 0 by the page, with its time in workout seconds and either the heart rate or the
/// strap's raw 0x2A37 notification in hex), ticks of its clock, the runner's pause and resume
/// (Spotify follows them), the end, and pings (answered with a pong carrying the same t).
struct RunnerMessage: Decodable, Sendable {
    var type: String
    var samples: [IncomingSample]?
    var t: Double?

    struct IncomingSample: Decodable, Sendable {
        var seq: Int64
        var t: Double
        var bpm: Int?
        /// A Heart Rate Measurement notification as the strap sent it, in hex: read by the
        /// engine's parser, so the page and the server cannot disagree on what it said.
        var m: String?
    }

    /// Most samples one message may carry (a backlog is sent in pieces).
    static let maxSamples = 2000
}

/// A runner as a coach sees them.
struct RunnerState: Codable, Sendable, Equatable {
    var workoutID: String
    var runner: String
    var bpm: Int?
    var zone: Int?
    var phase: Int
    var phaseKind: String
    var elapsed: Double
    var status: String
    var strapLive: Bool
    var updatedAt: Int64
    /// When the server last heard a heart-rate sample of theirs (ms since 1970; nil: none yet).
    var lastSampleAt: Int64? = nil
    /// Seconds since then, as the frame is sent: the coach's screen counts on from it (with
    /// its own clock, never comparing it with the server's), so a runner whose page closed
    /// shows as last seen that long ago instead of still at their last heart rate.
    var sampleAge: Double? = nil

    enum CodingKeys: String, CodingKey {
        case workoutID = "workout_id", runner, bpm, zone, phase, phaseKind = "phase_kind", elapsed, status, strapLive = "strap_live", updatedAt = "updated_at"
        case lastSampleAt = "last_sample_at", sampleAge = "sample_age"
    }

    /// The state with its sample's age at `now`.
    func aged(at now: Date) -> RunnerState {
        var copy = self
        copy.sampleAge = lastSampleAt.map { max(0, (now.timeIntervalSince1970 * 1000 - Double($0)) / 1000) }
        return copy
    }
}

/// The server's side of the conversation, one JSON object per message.
enum LiveMessage {
    static func encode(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// `role`: "recorder" (this page's samples are the run's) or "viewer" (another page records;
    /// this one watches).
    static func hello(acked: Int64, session: TrainingSession, status: String, role: String = "recorder") -> String {
        encode(["type": "hello", "acked_seq": acked, "phase": session.phaseIndex, "elapsed": session.latest, "status": status, "role": role])
    }

    /// A heart rate the recording page sent, for the pages watching.
    static func heart(bpm: Int, at t: Double) -> String { encode(["type": "heart", "bpm": bpm, "t": t]) }

    static func ack(_ seq: Int64) -> String { encode(["type": "ack", "seq": seq]) }

    static func pong(_ t: Double?) -> String { encode(["type": "pong", "t": t ?? NSNull()]) }

    static func error(_ message: String) -> String { encode(["type": "error", "message": message]) }

    static func finished(_ reason: FinishReason, workout: String) -> String {
        encode(["type": "finished", "reason": reason.rawValue, "workout_id": workout])
    }

    /// One engine action as the page reads it.
    static func action(_ action: TrainingAction, at t: Double) -> String? {
        switch action {
        case .cue(let cue): encode(["type": "cue", "t": t, "cue": cueObject(cue)])
        case .phaseChanged(let index): encode(["type": "phase", "index": index, "t": t])
        case .strap(let live): encode(["type": "strap", "live": live, "t": t])
        case .finished: nil  // said once the summary is stored
        }
    }

    static func cueObject(_ cue: Cue) -> [String: Any] {
        switch cue {
        case .zone(let zone, let bpm): ["kind": "zone", "zone": zone, "bpm": bpm]
        case .target(let state, let bpm, let low, let high): ["kind": "target", "state": state.rawValue, "bpm": bpm, "low": low, "high": high]
        case .phase(let kind, let seconds, let interval, let of):
            ["kind": "phase", "phase": kind.rawValue, "seconds": seconds ?? NSNull(), "interval": interval ?? NSNull(), "of": of ?? NSNull()]
        case .strapSilent: ["kind": "strap_silent"]
        case .strapBack: ["kind": "strap_back"]
        case .finished: ["kind": "finished"]
        }
    }

    /// A class's runners for its coach's screen.
    static func classState(code: String, name: String, runners: [RunnerState]) -> String {
        struct Frame: Encodable {
            var type = "class"
            var code: String
            var name: String
            var runners: [RunnerState]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(Frame(code: code, name: name, runners: runners)) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// Bytes from hex ("16a0..."); nil for anything else.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0, digits.count <= 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var i = 0
        while i < digits.count {
            guard let high = nibble(digits[i]), let low = nibble(digits[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
            i += 2
        }
        self = bytes
    }
}
