import Foundation

/// A radix-2 FFT of real frames, for the chroma of a song: the power of each frequency bin of
/// a Hann-windowed frame. The tables are made once; each frame is transformed in place.
struct PowerSpectrum: Sendable {
    let size: Int
    private let cosines: [Float]
    private let sines: [Float]
    private let window: [Float]
    private let reversed: [Int]

    /// A frame of 2^`log2Size` samples.
    init(log2Size: Int) {
        let size = 1 << max(1, min(log2Size, 16))
        self.size = size
        cosines = (0..<size / 2).map { Float(cos(-2 * Double.pi * Double($0) / Double(size))) }
        sines = (0..<size / 2).map { Float(sin(-2 * Double.pi * Double($0) / Double(size))) }
        // Hann: the frame's edges fade, so a note's power stays in its own bins.
        window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        let bits = size.trailingZeroBitCount
        reversed = (0..<size).map { index in
            var value = 0
            for bit in 0..<bits where index & (1 << bit) != 0 { value |= 1 << (bits - 1 - bit) }
            return value
        }
    }

    /// The power of bins 0..<size/2 of `samples[start..<start+size]` (zeros past the end).
    func power(of samples: [Float], from start: Int, into power: inout [Float]) {
        var real = [Float](repeating: 0, count: size)
        var imaginary = [Float](repeating: 0, count: size)
        for index in 0..<size {
            let at = start + index
            real[reversed[index]] = at < samples.count ? samples[at] * window[index] : 0
        }
        var half = 1
        while half < size {
            let step = size / (half * 2)
            var group = 0
            while group < size {
                for pair in 0..<half {
                    let c = cosines[pair * step], s = sines[pair * step]
                    let a = group + pair, b = a + half
                    let tr = real[b] * c - imaginary[b] * s
                    let ti = real[b] * s + imaginary[b] * c
                    real[b] = real[a] - tr
                    imaginary[b] = imaginary[a] - ti
                    real[a] += tr
                    imaginary[a] += ti
                }
                group += half * 2
            }
            half *= 2
        }
        for bin in 0..<size / 2 { power[bin] = real[bin] * real[bin] + imaginary[bin] * imaginary[bin] }
    }
}
