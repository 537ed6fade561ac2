import Foundation

/// A song as a sequence of chroma vectors, about three a second: how much of each of the twelve
/// pitch classes sounds (from 55 Hz to 2 kHz: the bass, the chords and the tune), as a unit
/// vector with the frame's floor taken off (what every pitch class has, drums' noise, counts
/// for nothing), and how loud each stretch is.
struct ChromaSequence: Sendable {
    /// Unit vectors of 12, or zeros for silence.
    var chroma: [[Float]]
    /// The root mean square of each stretch's samples.
    var loudness: [Float]
    /// Seconds per vector.
    var step: Double

    static let log2FrameSize = 11
    static let hop = 1024
    /// FFT frames averaged into one vector (~0.37 s at 11,025 Hz).
    static let pooled = 4

    init(samples: [Float], sampleRate: Double) {
        let spectrum = PowerSpectrum(log2Size: Self.log2FrameSize)
        let frameSize = spectrum.size
        let classes: [Int] = (0..<frameSize / 2).map { bin in
            let frequency = Double(bin) * sampleRate / Double(frameSize)
            guard frequency >= 55, frequency <= 2_000 else { return -1 }
            let midi = 69 + 12 * log2(frequency / 440)
            return (Int(midi.rounded()) % 12 + 12) % 12
        }
        var power = [Float](repeating: 0, count: frameSize / 2)
        var chroma: [[Float]] = []
        var loudness: [Float] = []
        var sum = [Float](repeating: 0, count: 12)
        var energy: Float = 0
        var framesIn = 0
        var start = 0
        while start + frameSize / 2 < samples.count {
            spectrum.power(of: samples, from: start, into: &power)
            for bin in 0..<power.count where classes[bin] >= 0 { sum[classes[bin]] += power[bin] }
            for index in start..<min(start + Self.hop, samples.count) { energy += samples[index] * samples[index] }
            framesIn += 1
            if framesIn == Self.pooled {
                chroma.append(Self.unit(sum.map { ($0 + 1e-9).squareRoot() }))
                loudness.append((energy / Float(Self.hop * Self.pooled)).squareRoot())
                sum = [Float](repeating: 0, count: 12)
                energy = 0
                framesIn = 0
            }
            start += Self.hop
        }
        self.chroma = chroma
        self.loudness = loudness
        self.step = Double(Self.hop * Self.pooled) / sampleRate
    }

    /// `vector`'s shape: its smallest value taken off, at unit length (zeros when flat).
    static func unit(_ vector: [Float]) -> [Float] {
        let floor = vector.min() ?? 0
        let lifted = vector.map { $0 - floor }
        let length = lifted.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return length > 1e-6 ? lifted.map { $0 / length } : [Float](repeating: 0, count: vector.count)
    }
}
