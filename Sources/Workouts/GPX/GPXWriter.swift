import Feeds
import Foundation

/// Writes a workout as GPX 1.1 with heart rate in Garmin's TrackPointExtension
/// (`<gpxtpx:hr>`), the form sports apps export and `GPXReader` reads back: a track point
/// per heart-rate sample.
///
/// RunBeat records no position (a treadmill, a spinning class, a phone in a pocket), so its
/// points carry time and heart rate only: no made-up coordinates that would put the run in
/// the Gulf of Guinea. Apps that need a route read the file's heart rate against their own
/// recording of it, by time.
public enum GPXWriter {
    public static func encode(_ workout: RecordedWorkout) -> [UInt8] {
        let start = workout.start ?? workout.samples.first?.time ?? Date(timeIntervalSince1970: 0)
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Juke RunBeat" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
              <metadata><time>\(FeedDate.iso(start))</time></metadata>
              <trk>
                <name>RunBeat workout</name>

            """
        if let sport = workout.sport { out += "    <type>\(escape(sport))</type>\n" }
        out += "    <trkseg>\n"
        for sample in workout.samples {
            out += "      <trkpt><time>\(FeedDate.iso(sample.time))</time>"
            out += "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(sample.bpm)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>\n"
        }
        out += "    </trkseg>\n  </trk>\n</gpx>\n"
        return Array(out.utf8)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
