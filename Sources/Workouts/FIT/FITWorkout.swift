import Foundation

/// A FIT activity file as a workout: its records' heart rate, its sessions' start and elapsed
/// time, its laps. Numbers and scales are the FIT profile's (messages 0 file_id, 18 session,
/// 19 lap, 20 record).
public enum FITWorkout {
    enum Message {
        static let fileID: UInt16 = 0
        static let session: UInt16 = 18
        static let lap: UInt16 = 19
        static let record: UInt16 = 20
    }

    enum Field {
        static let timestamp: UInt8 = 253
        static let recordHeartRate: UInt8 = 3
        static let startTime: UInt8 = 2
        static let sport: UInt8 = 5
        static let totalElapsedTime: UInt8 = 7
        static let lapIntensity: UInt8 = 23
        static let fileTimeCreated: UInt8 = 4
    }

    static let sports: [UInt64: String] = [
        0: "generic", 1: "running", 2: "cycling", 3: "transition", 4: "fitness_equipment", 5: "swimming", 10: "training", 11: "walking",
        15: "rowing", 17: "hiking",
    ]

    public static func read(_ bytes: [UInt8]) throws(WorkoutFileError) -> RecordedWorkout {
        let file: FITFile
        do {
            file = try FITDecoder.decode(bytes)
        } catch {
            throw .unreadable(error.description)
        }
        return workout(from: file)
    }

    static func date(_ fit: Int64) -> Date { Date(timeIntervalSince1970: Double(fit) + FITDecoder.epoch) }

    public static func workout(from file: FITFile) -> RecordedWorkout {
        var samples: [HeartRateSample] = []
        var laps: [WorkoutLap] = []
        var sessionStart: Date?
        var sessionEnd: Date?
        var sport: String?
        var created: Date?
        var first: UInt32?
        var last: UInt32?
        for message in file.messages {
            if let t = message.timestamp {
                if first == nil { first = t }
                last = max(last ?? t, t)
            }
            switch message.global {
            case Message.record:
                if let t = message.timestamp, let bpm = message[Field.recordHeartRate].integer, bpm > 0, bpm < 255 {
                    samples.append(HeartRateSample(time: date(Int64(t)), bpm: Int(bpm)))
                }
            case Message.session:
                if let start = message[Field.startTime].integer {
                    let startDate = date(start)
                    sessionStart = min(sessionStart ?? startDate, startDate)
                    if let elapsed = message[Field.totalElapsedTime].number {
                        let end = startDate.addingTimeInterval(elapsed / 1000)
                        sessionEnd = max(sessionEnd ?? end, end)
                    }
                }
                if sport == nil, let code = message[Field.sport].integer { sport = sports[UInt64(code)] }
            case Message.lap:
                if let start = message[Field.startTime].integer, let elapsed = message[Field.totalElapsedTime].number {
                    let intensity: LapIntensity =
                        switch message[Field.lapIntensity].integer {
                        case 1: .rest
                        case 2: .warmup
                        case 3: .cooldown
                        default: .active
                        }
                    laps.append(WorkoutLap(start: date(start), duration: elapsed / 1000, intensity: intensity))
                }
            case Message.fileID:
                if let t = message[Field.fileTimeCreated].integer { created = date(t) }
            default:
                break
            }
        }
        samples.sort { $0.time < $1.time }
        let start = sessionStart ?? first.map { date(Int64($0)) } ?? created
        var duration = 0.0
        if let sessionStart, let sessionEnd {
            duration = sessionEnd.timeIntervalSince(sessionStart)
        } else if let first, let last {
            duration = Double(last - first)
        }
        var damage: String?
        if let d = file.damage {
            damage = "\(d); what came before it was read"
        } else if file.checksumMismatch {
            damage = "the file's checksum does not match its bytes"
        }
        return RecordedWorkout(format: .fit, sport: sport, start: start, duration: duration, samples: samples, laps: laps, damage: damage)
    }
}
