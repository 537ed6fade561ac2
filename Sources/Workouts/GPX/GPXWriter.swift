import Feeds
import Foundation

/// Writes a workout as GPX 1.1 with heart rate in Garmin's TrackPointExtension v1
/// (`<gpxtpx:hr>`), the form sports apps export and `GPXReader` reads back: a track point per
/// position, with the heart rate heard nearest to it in time.
///
/// GPX is a route: every track point must have a latitude and a longitude (the schema
/// requires them, and apps refuse a file without). A workout recorded without positions (a
/// treadmill, a spinning class, a page that records heart rate only) is refused rather than
/// written with made-up coordinates: TCX and FIT carry heart rate without a route.
public enum GPXWriter {
    public enum Refusal: Error, Equatable {
        /// The workout has no position to put in a track point.
        case noPositions
    }

    /// A sample this far from a position in time or nearer is its heart rate.
    static let heartRateReach: TimeInterval = 5

    public static func encode(_ workout: RecordedWorkout) throws(Refusal) -> [UInt8] {
        let positions = workout.positions.filter(\.isValid).sorted { $0.time < $1.time }
        guard !positions.isEmpty else { throw .noPositions }
        let start = workout.start ?? positions[0].time
        let samples = workout.samples.sorted { $0.time < $1.time }
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Juke RunBeat" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd \
            http://www.garmin.com/xmlschemas/TrackPointExtension/v1 http://www.garmin.com/xmlschemas/TrackPointExtensionv1.xsd">
              <metadata><time>\(FeedDate.iso(start))</time></metadata>
              <trk>
                <name>RunBeat workout</name>

            """
        if let sport = workout.sport { out += "    <type>\(escape(sport))</type>\n" }
        out += "    <trkseg>\n"
        var next = 0
        for position in positions {
            // The samples are walked once, alongside the positions.
            while next + 1 < samples.count && samples[next + 1].time <= position.time { next += 1 }
            let near = [next, next + 1].filter { samples.indices.contains($0) }
                .min { abs(samples[$0].time.timeIntervalSince(position.time)) < abs(samples[$1].time.timeIntervalSince(position.time)) }
            out += "      <trkpt lat=\"\(degrees(position.latitude))\" lon=\"\(degrees(position.longitude))\">"
            if let elevation = position.elevation, elevation.isFinite { out += "<ele>\(String(format: "%.1f", elevation))</ele>" }
            out += "<time>\(FeedDate.iso(position.time))</time>"
            if let near, abs(samples[near].time.timeIntervalSince(position.time)) <= heartRateReach, (0...255).contains(samples[near].bpm) {
                out += "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(samples[near].bpm)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>"
            }
            out += "</trkpt>\n"
        }
        out += "    </trkseg>\n  </trk>\n</gpx>\n"
        return Array(out.utf8)
    }

    /// Seven decimals: about a centimetre, more than any phone's fix.
    static func degrees(_ value: Double) -> String { String(format: "%.7f", value) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
