import Foundation

/// Writes a workout as a FIT activity file that Garmin Connect, Strava and the FIT SDK read:
/// file_id, a timer start event, a record per heart-rate sample, a lap per lap (or one for
/// the whole), the session and the activity, with both checksums.
public enum FITEncoder {
    static let profileVersion: UInt16 = 2132

    public static func encode(_ workout: RecordedWorkout) -> [UInt8] {
        var body = Body()
        let start = workout.start ?? workout.samples.first?.time ?? Date(timeIntervalSince1970: FITDecoder.epoch)
        let end = start.addingTimeInterval(max(workout.duration, 0))
        let hr = workout.samples.map(\.bpm)
        // file_id: an activity, from a development manufacturer (255).
        body.define(local: 0, global: 0, fields: [(0, 1, 0x00), (1, 2, 0x84), (2, 2, 0x84), (3, 4, 0x8C), (4, 4, 0x86)])
        body.data(local: 0) {
            $0.u8(4); $0.u16(255); $0.u16(1); $0.u32(1); $0.u32(fit(start))
        }
        // event: timer start.
        body.define(local: 1, global: 21, fields: [(253, 4, 0x86), (0, 1, 0x00), (1, 1, 0x00)])
        body.data(local: 1) {
            $0.u32(fit(start)); $0.u8(0); $0.u8(0)
        }
        // record: timestamp and heart rate.
        body.define(local: 2, global: 20, fields: [(253, 4, 0x86), (3, 1, 0x02)])
        for sample in workout.samples {
            body.data(local: 2) {
                $0.u32(fit(sample.time)); $0.u8(UInt8(clamping: min(sample.bpm, 254)))
            }
        }
        // laps, then the session and the activity.
        let laps = workout.laps.isEmpty ? [WorkoutLap(start: start, duration: max(workout.duration, 0))] : workout.laps
        body.define(
            local: 3, global: 19,
            fields: [(253, 4, 0x86), (2, 4, 0x86), (7, 4, 0x86), (8, 4, 0x86), (15, 1, 0x02), (16, 1, 0x02), (23, 1, 0x00), (0, 1, 0x00), (1, 1, 0x00)])
        for lap in laps {
            let lapEnd = lap.start.addingTimeInterval(lap.duration)
            let inLap = workout.samples.filter { $0.time >= lap.start && $0.time < lapEnd }.map(\.bpm)
            body.data(local: 3) {
                $0.u32(fit(lapEnd)); $0.u32(fit(lap.start)); $0.u32(millis(lap.duration)); $0.u32(millis(lap.duration))
                $0.u8(average(inLap)); $0.u8(inLap.max().map { UInt8(clamping: $0) } ?? 0xFF)
                $0.u8(intensityCode(lap.intensity)); $0.u8(9); $0.u8(1)
            }
        }
        body.define(
            local: 4, global: 18,
            fields: [
                (253, 4, 0x86), (2, 4, 0x86), (7, 4, 0x86), (8, 4, 0x86), (5, 1, 0x00), (16, 1, 0x02), (17, 1, 0x02), (0, 1, 0x00), (1, 1, 0x00),
                (25, 2, 0x84), (26, 2, 0x84),
            ])
        body.data(local: 4) {
            $0.u32(fit(end)); $0.u32(fit(start)); $0.u32(millis(workout.duration)); $0.u32(millis(workout.duration))
            $0.u8(sportCode(workout.sport)); $0.u8(average(hr)); $0.u8(hr.max().map { UInt8(clamping: $0) } ?? 0xFF); $0.u8(8); $0.u8(1)
            $0.u16(0); $0.u16(UInt16(clamping: laps.count))
        }
        body.define(local: 5, global: 34, fields: [(253, 4, 0x86), (0, 4, 0x86), (1, 2, 0x84), (2, 1, 0x00), (3, 1, 0x00), (4, 1, 0x00)])
        body.data(local: 5) {
            $0.u32(fit(end)); $0.u32(millis(workout.duration)); $0.u16(1); $0.u8(0); $0.u8(26); $0.u8(1)
        }

        var header: [UInt8] = [14, 0x20]
        header += le(UInt32(profileVersion)).prefix(2)
        header += le(UInt32(body.bytes.count))
        header += Array(".FIT".utf8)
        header += le(UInt32(FITCRC.checksum(header))).prefix(2)
        var file = header + body.bytes
        file += le(UInt32(FITCRC.checksum(file))).prefix(2)
        return file
    }

    /// FIT time: seconds since 1989-12-31, kept below 0xFFFFFFFF (which means "no time").
    static func fit(_ date: Date) -> UInt32 {
        let seconds = (date.timeIntervalSince1970 - FITDecoder.epoch).rounded(.down)
        guard seconds.isFinite else { return 0 }
        return UInt32(max(0, min(seconds, Double(UInt32.max - 1))))
    }

    static func millis(_ seconds: Double) -> UInt32 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return UInt32(clamping: Int64((seconds * 1000).rounded()))
    }

    static func average(_ values: [Int]) -> UInt8 {
        guard !values.isEmpty else { return 0xFF }
        return UInt8(clamping: Int((Double(values.reduce(0, +)) / Double(values.count)).rounded()))
    }

    static func intensityCode(_ intensity: LapIntensity) -> UInt8 {
        switch intensity {
        case .active: 0
        case .rest: 1
        case .warmup: 2
        case .cooldown: 3
        }
    }

    static func sportCode(_ sport: String?) -> UInt8 {
        guard let sport else { return 1 }
        return UInt8(FITWorkout.sports.first(where: { $0.value == sport })?.key ?? 0)
    }

    static func le(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }

    struct Body {
        var bytes: [UInt8] = []

        mutating func define(local: UInt8, global: UInt16, fields: [(UInt8, UInt8, UInt8)]) {
            bytes += [0x40 | local, 0, 0, UInt8(global & 0xFF), UInt8(global >> 8), UInt8(fields.count)]
            for (number, size, type) in fields { bytes += [number, size, type] }
        }

        mutating func data(local: UInt8, _ write: (inout Writer) -> Void) {
            var writer = Writer()
            write(&writer)
            bytes.append(local)
            bytes += writer.bytes
        }
    }

    struct Writer {
        var bytes: [UInt8] = []
        mutating func u8(_ v: UInt8) { bytes.append(v) }
        mutating func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        mutating func u32(_ v: UInt32) { bytes += le(v) }
    }
}
