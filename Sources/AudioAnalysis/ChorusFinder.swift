/// Where a song's chorus starts: the section that comes back most often and most closely, and
/// loudest, as a party quiz wants its clip to start where people know the song. Pure: it reads
/// samples (mono, at a low rate: ffmpeg decodes them) and answers seconds.
///
/// The song becomes chroma vectors (`ChromaSequence`); two stretches that sound alike have
/// alike vectors all along a diagonal of the self-similarity matrix, whose diagonals are kept
/// as prefix sums, so a stretch's likeness to any other is one subtraction. Each stretch of
/// `window` seconds is scored by the places it comes back (peaks above a bar set between the
/// song's typical likeness and its 95th percentile, summed over how far each stands above the
/// typical) times its loudness squared against the song's. The best stretch's first close
/// return (the weaker likenesses, such as a verse over the same chords, left out) is snapped to
/// the nearest section boundary: where the harmony changes most and the music grows louder.
public struct ChorusFinder: Sendable {
    public struct Settings: Sendable {
        /// The rate the samples are at.
        public var sampleRate: Double
        /// The stretch that counts as a section coming back, in seconds (7 found the chorus
        /// most often on the test songs: 5 s and 6 s took more verse ends).
        public var window: Double

        public init(sampleRate: Double = 11_025, window: Double = 7) {
            self.sampleRate = sampleRate
            self.window = window
        }
    }

    /// Where the chorus starts, in seconds; how long the repeated stretch that found it is;
    /// and how sure, from 0 (nothing in the song comes back) to 1.
    public struct Finding: Sendable, Equatable {
        public var start: Double
        public var length: Double
        public var confidence: Double
    }

    public let settings: Settings

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// The chorus of the song in `samples`; nil when the song is too short to have one.
    public func find(_ samples: [Float]) -> Finding? {
        let features = ChromaSequence(samples: samples, sampleRate: settings.sampleRate)
        let count = features.chroma.count
        let window = max(4, Int((settings.window / features.step).rounded()))
        guard count >= window * 3 else { return nil }
        let similarity = DiagonalSums(features.chroma)
        func likeness(_ i: Int, _ j: Int) -> Float { similarity.mean(from: i, j, length: window) }
        let starts = count - window + 1
        var all: [Float] = []
        all.reserveCapacity(starts * starts / 2)
        for i in 0..<starts where i + window < starts {
            for j in (i + window)..<starts { all.append(likeness(i, j)) }
        }
        guard !all.isEmpty else { return nil }
        all.sort()
        let typical = all[all.count / 2]
        let high = all[min(all.count - 1, all.count * 95 / 100)]
        let bar = typical + (high - typical) * 0.5
        let loudness = features.loudness
        let meanLoudness = loudness.reduce(0, +) / Float(max(1, loudness.count))
        var best: (score: Float, start: Int, repeats: [(at: Int, likeness: Float)]) = (0, 0, [])
        for i in 0..<starts {
            let repeats = returns(of: i, starts: starts, window: window, bar: bar, likeness: likeness)
            guard !repeats.isEmpty else { continue }
            let score = repeats.reduce(Float(0)) { $0 + $1.likeness - typical }
            let segment = loudness[i..<(i + window)].reduce(0, +) / Float(window)
            let weight = meanLoudness > 0 ? segment / meanLoudness : 1
            if score * weight * weight > best.score { best = (score * weight * weight, i, repeats) }
        }
        guard best.score > 0 else { return Finding(start: 0, length: 0, confidence: 0) }
        let closest = best.repeats.map(\.likeness).max() ?? 0
        let close = best.repeats.filter { $0.likeness >= typical + (closest - typical) * 0.85 }.map(\.at)
        let first = boundary(near: ([best.start] + close).min() ?? best.start, window: window, features: features)
        return Finding(
            start: Double(first) * features.step, length: Double(window) * features.step,
            confidence: Double(min(1, max(0, closest - typical) / max(1e-6, 1 - typical))))
    }

    /// The places the stretch at `i` comes back: in each run of starts whose likeness to it is
    /// above `bar` (a return matches over a few neighbouring starts), the best one.
    func returns(of i: Int, starts: Int, window: Int, bar: Float, likeness: (Int, Int) -> Float) -> [(at: Int, likeness: Float)] {
        var found: [(at: Int, likeness: Float)] = []
        var j = 0
        while j < starts {
            guard abs(j - i) >= window, likeness(i, j) > bar else {
                j += 1
                continue
            }
            var peak = (at: j, likeness: likeness(i, j))
            var k = j + 1
            while k < starts, abs(k - i) >= window, likeness(i, k) > bar {
                if likeness(i, k) > peak.likeness { peak = (k, likeness(i, k)) }
                k += 1
            }
            found.append(peak)
            j = max(k, peak.at + window)
        }
        return found
    }

    /// `start` moved onto the section boundary nearest it, from a little before to the middle
    /// of the stretch (a stretch found by repetition may begin with the end of the verse
    /// before it, which comes back too): the vector where the three before and the three after
    /// differ most in harmony, plus how much louder the after are. Unmoved when no boundary is
    /// clear.
    func boundary(near start: Int, window: Int, features: ChromaSequence) -> Int {
        let side = 3
        let chroma = features.chroma, loudness = features.loudness
        let mean = loudness.reduce(0, +) / Float(max(1, loudness.count))
        let from = max(side, start - side), to = min(chroma.count - side, start + window / 2)
        guard from <= to else { return start }
        var best = start, bestScore: Float = 0.25
        for t in from...to {
            var before = [Float](repeating: 0, count: 12), after = before
            var loudBefore: Float = 0, loudAfter: Float = 0
            for k in 0..<side {
                for c in 0..<12 {
                    before[c] += chroma[t - 1 - k][c]
                    after[c] += chroma[t + k][c]
                }
                loudBefore += loudness[t - 1 - k]
                loudAfter += loudness[t + k]
            }
            let a = ChromaSequence.unit(before), b = ChromaSequence.unit(after)
            var alike: Float = 0
            for c in 0..<12 { alike += a[c] * b[c] }
            let rise = mean > 0 ? max(0, loudAfter - loudBefore) / Float(side) / mean : 0
            // The first vector wholly after the boundary: vector t's frames reach into the next.
            if (1 - alike) + rise > bestScore { (best, bestScore) = (t + 1, (1 - alike) + rise) }
        }
        return best
    }
}
