import Feeds
import Foundation

/// GPS Exchange Format tracks with heart rate in Garmin's TrackPointExtension
/// (`<gpxtpx:hr>`, also written `ns3:hr`) or a plain `<heartrate>` extension, as sports apps
/// export it.
public enum GPXReader {
    public static func read(_ bytes: [UInt8]) throws(WorkoutFileError) -> RecordedWorkout {
        var walk = XMLWalk()
        var points = TrackPoints()
        var sawRoot = false
        var metadataTime: Date?
        var sport: String?
        var pointTime: Date?
        var pointBPM: Int?
        var pointPlace: (latitude: Double, longitude: Double)?
        var pointElevation: Double?
        var positions: [TrackPosition] = []
        try walk.walk(
            bytes,
            start: { _, name, attributes in
                switch name {
                case "gpx": sawRoot = true
                case "trkpt":
                    pointTime = nil
                    pointBPM = nil
                    pointElevation = nil
                    let lat = attributes.first { $0.name == "lat" }.flatMap { Double($0.value) }
                    let lon = attributes.first { $0.name == "lon" }.flatMap { Double($0.value) }
                    pointPlace = lat.flatMap { lat in lon.map { (lat, $0) } }
                default: break
                }
            },
            end: { walk, name, text in
                let parent = walk.path.last
                switch name {
                case "time" where parent == "metadata":
                    metadataTime = FeedDate.parse(text)
                case "type" where parent == "trk":
                    let s = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
                    if sport == nil && !s.isEmpty { sport = s }
                case "time" where parent == "trkpt":
                    pointTime = FeedDate.parse(text)
                case "ele" where parent == "trkpt":
                    pointElevation = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
                case "hr", "heartrate":
                    if walk.path.contains("trkpt"), let v = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), v >= 1, v < 254.5 {
                        pointBPM = Int(v.rounded())
                    }
                case "trkpt":
                    points.add(time: pointTime, bpm: pointBPM)
                    if let pointTime, let place = pointPlace {
                        let position = TrackPosition(time: pointTime, latitude: place.latitude, longitude: place.longitude, elevation: pointElevation)
                        if position.isValid { positions.append(position) }
                    }
                default: break
                }
            })
        guard sawRoot else { throw .unreadable("not a GPX file: no gpx element") }
        return RecordedWorkout(
            format: .gpx, sport: sport, start: points.first ?? metadataTime, duration: points.span, samples: points.sorted,
            positions: positions.sorted { $0.time < $1.time },
            damage: walk.closed ? nil : "the file ends before its closing tags; what came before was read")
    }
}
