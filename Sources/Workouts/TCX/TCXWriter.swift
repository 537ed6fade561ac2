import Feeds
import Foundation

/// Writes a workout as Training Center XML (version 2), a lap per lap, a track point per
/// heart-rate sample, which Garmin Connect, Strava and TrainingPeaks import.
public enum TCXWriter {
    public static func encode(_ workout: RecordedWorkout) -> [UInt8] {
        let start = workout.start ?? workout.samples.first?.time ?? Date(timeIntervalSince1970: 0)
        let laps = workout.laps.isEmpty ? [WorkoutLap(start: start, duration: max(workout.duration, 0))] : workout.laps.sorted { $0.start < $1.start }
        // Every sample in exactly one lap: the last lap to start at or before it (the first
        // lap for any before them all), whatever gaps or overlaps the laps have.
        var pointsByLap = [[HeartRateSample]](repeating: [], count: laps.count)
        for sample in workout.samples {
            let index = laps.lastIndex(where: { $0.start <= sample.time }) ?? 0
            pointsByLap[index].append(sample)
        }
        let sport =
            switch workout.sport {
            case "running": "Running"
            case "cycling": "Biking"
            default: "Other"
            }
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
              <Activities>
                <Activity Sport="\(sport)">
                  <Id>\(iso(start))</Id>

            """
        for (index, lap) in laps.enumerated() {
            let points = pointsByLap[index]
            let bpm = points.map(\.bpm)
            out += "      <Lap StartTime=\"\(iso(lap.start))\">\n"
            out += "        <TotalTimeSeconds>\(format(lap.duration))</TotalTimeSeconds>\n"
            out += "        <DistanceMeters>0</DistanceMeters>\n        <Calories>0</Calories>\n"
            if !bpm.isEmpty {
                let average = Int((Double(bpm.reduce(0, +)) / Double(bpm.count)).rounded())
                out += "        <AverageHeartRateBpm><Value>\(average)</Value></AverageHeartRateBpm>\n"
                out += "        <MaximumHeartRateBpm><Value>\(bpm.max() ?? average)</Value></MaximumHeartRateBpm>\n"
            }
            out += "        <Intensity>\(lap.intensity == .rest ? "Resting" : "Active")</Intensity>\n"
            out += "        <TriggerMethod>Manual</TriggerMethod>\n        <Track>\n"
            for point in points {
                out += "          <Trackpoint><Time>\(iso(point.time))</Time><HeartRateBpm><Value>\(point.bpm)</Value></HeartRateBpm></Trackpoint>\n"
            }
            out += "        </Track>\n      </Lap>\n"
        }
        out += "      <Creator xsi:type=\"Device_t\"><Name>Juke RunBeat</Name><UnitId>0</UnitId><ProductID>0</ProductID></Creator>\n"
        out += "    </Activity>\n  </Activities>\n</TrainingCenterDatabase>\n"
        return Array(out.utf8)
    }

    static func iso(_ date: Date) -> String { FeedDate.iso(date) }

    static func format(_ seconds: Double) -> String {
        let rounded = (seconds * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
