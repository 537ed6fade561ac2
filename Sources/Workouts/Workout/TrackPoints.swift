import Foundation

/// The track points of a TCX or GPX file as they are read: the first and last time seen (a
/// point without a heart rate still counts for the duration), and the heart-rate samples.
struct TrackPoints {
    private(set) var samples: [HeartRateSample] = []
    private(set) var first: Date?
    private(set) var last: Date?

    mutating func add(time: Date?, bpm: Int?) {
        guard let time else { return }
        first = min(first ?? time, time)
        last = max(last ?? time, time)
        if let bpm { samples.append(HeartRateSample(time: time, bpm: bpm)) }
    }

    /// The samples in time order.
    var sorted: [HeartRateSample] { samples.sorted { $0.time < $1.time } }

    /// Seconds from the first point to the last.
    var span: Double {
        guard let first, let last else { return 0 }
        return last.timeIntervalSince(first)
    }
}
