import Feeds
import Foundation

/// Garmin's Training Center XML: activities of laps of track points, each point with its
/// time and heart rate (`<HeartRateBpm><Value>`), each lap with its start and total time.
public enum TCXReader {
    public static func read(_ bytes: [UInt8]) throws(WorkoutFileError) -> RecordedWorkout {
        var walk = XMLWalk()
        var points = TrackPoints()
        var laps: [WorkoutLap] = []
        var sport: String?
        var activityStart: Date?
        var sawRoot = false
        // The track point being read.
        var pointTime: Date?
        var pointBPM: Int?
        var lapStart: Date?
        var lapSeconds: Double?
        var lapIntensity = LapIntensity.active
        try walk.walk(
            bytes,
            start: { walk, name, attributes in
                switch name {
                case "TrainingCenterDatabase": sawRoot = true
                case "Activity":
                    if sport == nil, let s = attributes.first(where: { $0.name == "Sport" })?.value, !s.isEmpty { sport = s.lowercased() }
                case "Lap":
                    lapStart = attributes.first(where: { $0.name == "StartTime" }).flatMap { FeedDate.parse($0.value) }
                    lapSeconds = nil
                    lapIntensity = .active
                case "Trackpoint":
                    pointTime = nil
                    pointBPM = nil
                default: break
                }
            },
            end: { walk, name, text in
                let parent = walk.path.last
                switch name {
                case "Id" where parent == "Activity":
                    if activityStart == nil { activityStart = FeedDate.parse(text) }
                case "Time" where parent == "Trackpoint":
                    pointTime = FeedDate.parse(text)
                case "Value" where parent == "HeartRateBpm" && walk.path.dropLast().last == "Trackpoint":
                    if let v = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), v >= 1, v < 254.5 { pointBPM = Int(v.rounded()) }
                case "TotalTimeSeconds" where parent == "Lap":
                    lapSeconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
                case "Intensity" where parent == "Lap":
                    if text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == "resting" { lapIntensity = .rest }
                case "Trackpoint":
                    points.add(time: pointTime, bpm: pointBPM)
                case "Lap":
                    if let start = lapStart, let seconds = lapSeconds, seconds.isFinite, seconds >= 0 {
                        laps.append(WorkoutLap(start: start, duration: seconds, intensity: lapIntensity))
                    }
                default: break
                }
            })
        guard sawRoot else { throw .unreadable("not a TCX file: no TrainingCenterDatabase element") }
        let start = laps.first?.start ?? activityStart ?? points.first
        var duration = 0.0
        if let lapStart = laps.map(\.start).min(), let lapEnd = laps.map({ $0.start.addingTimeInterval($0.duration) }).max() {
            duration = lapEnd.timeIntervalSince(lapStart)
        } else {
            duration = points.span
        }
        return RecordedWorkout(
            format: .tcx, sport: sport, start: start, duration: max(0, duration), samples: points.sorted, laps: laps,
            damage: walk.closed ? nil : "the file ends before its closing tags; what came before was read")
    }
}
