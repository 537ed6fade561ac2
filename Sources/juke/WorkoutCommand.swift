import ArgumentParser
import Feeds
import Foundation
import RunBeat
import Workouts

/// `juke workout`: what Juke reads from a recorded workout (FIT, TCX or GPX), the time in each
/// of the runner's zones, and the workout written again as FIT or TCX.
struct WorkoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout",
        abstract: "Prints what Juke reads from recorded workouts (.fit, .tcx, .gpx): start, duration, heart rate, time in each zone.",
        discussion: """
            With --json each file prints one line: {"start", "duration", "samples", "hr_avg", "hr_max", \
            "zone_seconds": [zone 1, ..., zone 5], "below_zones_seconds", "format", "sport", "laps", "damage"}. \
            Zones are Karvonen's for --age and --resting (30 and 60 when not given). A damaged file is read up \
            to the damage and says so on standard error; one with nothing readable fails.
            """
    )

    @Argument(help: "FIT, TCX or GPX files.") var files: [String]
    @Flag(help: "One JSON object per file and line.") var json = false
    @Option(help: "The runner's age.") var age: Int = 30
    @Option(help: "Resting heart rate (bpm).") var resting: Int = 60
    @Option(help: "Measured maximum heart rate (bpm); estimated from the age when left out.") var max: Int?
    @Option(help: "How the maximum is estimated: fox (220 - age) or tanaka (208 - 0.7 age).") var formula: MaximumFormula = .fox
    @Flag(help: "With --json, also every heart-rate sample as [unix seconds, bpm].") var records = false
    @Option(help: "Writes the (one) workout read as this format: fit or tcx.") var to: ExportFormat?
    @Option(name: .shortAndLong, help: "Where --to writes.") var output: String?

    enum ExportFormat: String, ExpressibleByArgument { case fit, tcx }

    func validate() throws {
        if to != nil && (output == nil || files.count != 1) { throw ValidationError("--to needs one file and --output") }
    }

    func run() throws {
        let profile = try HeartRateProfile.checked(age: age, resting: resting, max: max, formula: formula)
        let zones = HeartRateZones(karvonen: profile)
        var failed = false
        for path in files {
            do {
                guard let data = FileManager.default.contents(atPath: path) else { throw WorkoutFileError.unreadable("no such file") }
                let workout = try WorkoutFile.read(Array(data))
                if let damage = workout.damage { FileHandle.standardError.write(Data("\(path): \(damage)\n".utf8)) }
                if let to, let output {
                    let bytes = to == .fit ? FITEncoder.encode(workout) : TCXWriter.encode(workout)
                    try Data(bytes).write(to: URL(fileURLWithPath: output))
                }
                print(json ? try Self.json(workout, zones: zones, records: records) : Self.text(workout, zones: zones, profile: profile))
            } catch {
                failed = true
                FileHandle.standardError.write(Data("\(path): \(error)\n".utf8))
            }
        }
        if failed { throw ExitCode(1) }
    }

    static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    static func json(_ workout: RecordedWorkout, zones: HeartRateZones, records: Bool) throws -> String {
        let time = ZoneTime.seconds(workout.offsets(), zones: zones, end: workout.duration > 0 ? workout.duration : nil)
        var object: [String: Any] = [
            "start": workout.start.map(FeedDate.iso) ?? NSNull(), "duration": rounded(workout.duration), "samples": workout.samples.count,
            "hr_avg": workout.averageHeartRate.map(rounded) ?? NSNull(), "hr_max": workout.maximumHeartRate ?? NSNull(),
            "zone_seconds": time.zones.map(rounded), "below_zones_seconds": rounded(time.below), "format": workout.format.rawValue,
            "sport": workout.sport ?? NSNull(), "laps": workout.laps.count, "damage": workout.damage ?? NSNull(),
        ]
        if records { object["records"] = workout.samples.map { [Int($0.time.timeIntervalSince1970), $0.bpm] } }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }

    static func text(_ workout: RecordedWorkout, zones: HeartRateZones, profile: HeartRateProfile) -> String {
        let time = ZoneTime.seconds(workout.offsets(), zones: zones, end: workout.duration > 0 ? workout.duration : nil)
        var out = "\(workout.format.rawValue.uppercased()) workout"
        if let sport = workout.sport { out += " (\(sport))" }
        out += "\nstart     \(workout.start.map(FeedDate.iso) ?? "unknown")\n"
        out += "duration  \(clock(workout.duration))\n"
        out += "samples   \(workout.samples.count) heart-rate samples, \(workout.laps.count) laps\n"
        if let average = workout.averageHeartRate, let peak = workout.maximumHeartRate {
            out += "heart     average \(Int(average.rounded())) bpm, maximum \(peak) bpm\n"
        }
        out += "zones     Karvonen for age \(profile.age), resting \(profile.resting), maximum \(profile.maximum)\n"
        for zone in zones.zones {
            out += "  zone \(zone.zone)  \(zone.low)-\(zone.high - 1) bpm  \(clock(time.zones[zone.zone - 1]))\n"
        }
        out += "  below   <\(zones.bounds[0]) bpm  \(clock(time.below))"
        return out
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}

extension MaximumFormula: ExpressibleByArgument {}

extension HeartRateProfile {
    /// The profile the options describe, or the engine's reason as the command's usage error.
    static func checked(age: Int, resting: Int, max: Int?, formula: MaximumFormula) throws -> HeartRateProfile {
        do {
            return try HeartRateProfile(age: age, resting: resting, measuredMaximum: max, formula: formula).validated()
        } catch {
            throw ValidationError(error.message)
        }
    }
}

/// `juke zones`: the five Karvonen zones for an age and resting heart rate.
struct ZonesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zones",
        abstract: "Prints the five Karvonen heart-rate zones (50 to 100% of the reserve above resting).",
        discussion: "With --json: [{\"zone\", \"low\", \"high\"}], each zone from low up to high (high belongs to the next zone)."
    )

    @Option(help: "The runner's age.") var age: Int
    @Option(help: "Resting heart rate (bpm).") var resting: Int
    @Option(help: "Measured maximum heart rate (bpm); estimated from the age when left out.") var max: Int?
    @Option(help: "How the maximum is estimated: fox (220 - age) or tanaka (208 - 0.7 age).") var formula: MaximumFormula = .fox
    @Flag(help: "JSON.") var json = false

    func run() throws {
        let profile = try HeartRateProfile.checked(age: age, resting: resting, max: max, formula: formula)
        let zones = HeartRateZones(karvonen: profile)
        if json {
            let list = zones.zones.map { ["zone": $0.zone, "low": $0.low, "high": $0.high] }
            print(String(decoding: try JSONSerialization.data(withJSONObject: list, options: [.sortedKeys]), as: UTF8.self))
        } else {
            print("maximum \(profile.maximum) bpm (\(max == nil ? profile.formula.rawValue : "measured")), resting \(profile.resting) bpm")
            for zone in zones.zones { print("zone \(zone.zone)  \(zone.low)-\(zone.high) bpm") }
        }
    }
}
