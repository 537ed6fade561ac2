import Foundation
import Testing

@testable import Workouts

@Suite(.timeLimit(.minutes(5))) struct TCXAndGPXTests {
    static let tcx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">
          <Activities>
            <Activity Sport="Running">
              <Id>2023-05-01T06:00:00.000Z</Id>
              <Lap StartTime="2023-05-01T06:00:00.000Z">
                <TotalTimeSeconds>120.0</TotalTimeSeconds>
                <AverageHeartRateBpm><Value>133</Value></AverageHeartRateBpm>
                <Intensity>Active</Intensity>
                <Track>
                  <Trackpoint><Time>2023-05-01T06:00:00.000Z</Time><Position><LatitudeDegrees>51.5</LatitudeDegrees></Position><HeartRateBpm><Value>120</Value></HeartRateBpm>
                    <Extensions><ns3:TPX><ns3:Speed>2.9</ns3:Speed></ns3:TPX></Extensions></Trackpoint>
                  <Trackpoint><Time>2023-05-01T06:00:01.000Z</Time><HeartRateBpm><Value>121</Value></HeartRateBpm></Trackpoint>
                  <Trackpoint><Time>2023-05-01T06:00:02.000Z</Time></Trackpoint>
                  <Trackpoint><Time>2023-05-01T06:01:59.000Z</Time><HeartRateBpm><Value>150</Value></HeartRateBpm></Trackpoint>
                </Track>
              </Lap>
              <Lap StartTime="2023-05-01T06:02:00Z"><TotalTimeSeconds>60</TotalTimeSeconds><Intensity>Resting</Intensity>
                <Track><Trackpoint><Time>2023-05-01T06:02:30Z</Time><HeartRateBpm><Value>140</Value></HeartRateBpm></Trackpoint></Track>
              </Lap>
            </Activity>
          </Activities>
        </TrainingCenterDatabase>
        """

    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Garmin Connect" xmlns="http://www.topografix.com/GPX/1/1"
          xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1" xmlns:ns3="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
          <metadata><time>2023-05-01T05:59:58Z</time></metadata>
          <trk><name>Morning Run</name><type>running</type><trkseg>
            <trkpt lat="51.5" lon="-0.1"><ele>12</ele><time>2023-05-01T06:00:00Z</time>
              <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>101</gpxtpx:hr><gpxtpx:cad>80</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>
            <trkpt lat="51.5" lon="-0.1"><time>2023-05-01T06:00:05Z</time>
              <extensions><ns3:TrackPointExtension><ns3:hr>105</ns3:hr></ns3:TrackPointExtension></extensions></trkpt>
            <trkpt lat="51.5" lon="-0.1"><time>2023-05-01T06:00:10Z</time></trkpt>
            <trkpt lat="51.5" lon="-0.1"><time>2023-05-01T06:00:15Z</time><extensions><heartrate>110</heartrate></extensions></trkpt>
          </trkseg></trk>
        </gpx>
        """

    @Test func tcxTrackPointsAndLapsAreRead() throws {
        let workout = try WorkoutFile.read(Array(Self.tcx.utf8))
        #expect(workout.format == .tcx)
        #expect(workout.sport == "running")
        #expect(workout.samples.map(\.bpm) == [120, 121, 150, 140])
        #expect(workout.start == Date(timeIntervalSince1970: 1_682_920_800))
        #expect(workout.laps.map(\.duration) == [120, 60])
        #expect(workout.laps.map(\.intensity) == [.active, .rest])
        #expect(workout.duration == 180)
        #expect(workout.damage == nil)
    }

    @Test func gpxHeartRateExtensionsInTheirSpellingsAreRead() throws {
        let workout = try WorkoutFile.read(Array(Self.gpx.utf8))
        #expect(workout.format == .gpx)
        #expect(workout.sport == "running")
        #expect(workout.samples.map(\.bpm) == [101, 105, 110])
        #expect(workout.duration == 15)
        #expect(workout.start == Date(timeIntervalSince1970: 1_682_920_800))
    }

    @Test func filesCutShortKeepWhatTheyHad() throws {
        // Cut inside a track point, after its heart rate: the point counts.
        let end = try #require(Self.tcx.range(of: "<Value>150</Value>")?.upperBound)
        let cut = try WorkoutFile.read(Array(Self.tcx[..<end].utf8))
        #expect(cut.samples.map(\.bpm) == [120, 121, 150])
        #expect(cut.damage?.contains("ends before its closing tags") == true)
        let gpx = try WorkoutFile.read(Array(Self.gpx.utf8.prefix(Self.gpx.utf8.count - 30)))
        #expect(gpx.samples.count == 3)
        #expect(gpx.damage != nil)
    }

    @Test func otherXMLIsRefused() throws {
        for text in ["<rss><channel/></rss>", "<TrainingCenterDatabase", "<html><body>gpx</body></html>"] {
            #expect(throws: WorkoutFileError.self, "\(text)") { try WorkoutFile.read(Array(text.utf8)) }
        }
        #expect(throws: WorkoutFileError.self) { try GPXReader.read(Array("<TrainingCenterDatabase/>".utf8)) }
        #expect(throws: WorkoutFileError.self) { try TCXReader.read(Array("<gpx/>".utf8)) }
        #expect(throws: WorkoutFileError.tooLarge(WorkoutFile.maxBytes + 1)) { try WorkoutFile.read([UInt8](repeating: 0x20, count: WorkoutFile.maxBytes + 1)) }
    }

    /// 20,000 open elements then 20,000 stray end tags was quadratic under the file's cap
    /// (each end tag searched every open element): nesting past 64 is refused at once.
    @Test func aFileNestedPastTheLimitIsRefused() throws {
        let deep = "<TrainingCenterDatabase>" + String(repeating: "<span>", count: 20_000) + String(repeating: "</zz>", count: 20_000)
        #expect(throws: WorkoutFileError.unreadable("its elements are nested more than \(XMLWalk.maxDepth) deep")) {
            try WorkoutFile.read(Array(deep.utf8))
        }
    }

    /// Stray end tags inside a real file are passed over, and what the file holds is read.
    @Test func strayEndTagsAreIgnored() throws {
        let points = (0..<3).map { "<Trackpoint><Time>2024-05-01T10:00:0\($0)Z</Time><HeartRateBpm><Value>\(120 + $0)</Value></HeartRateBpm></Trackpoint>" }
        let file =
            "<TrainingCenterDatabase><Activities><Activity Sport=\"Running\"><Id>2024-05-01T10:00:00Z</Id><Lap StartTime=\"2024-05-01T10:00:00Z\"><Track>"
            + String(repeating: "</zz>", count: 5_000) + points.joined() + "</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
        let workout = try WorkoutFile.read(Array(file.utf8))
        #expect(workout.samples.map(\.bpm) == [120, 121, 122])
    }
}
