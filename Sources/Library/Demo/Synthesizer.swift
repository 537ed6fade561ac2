import Foundation

/// Renders a melody to 16-bit mono PCM with simple additive instruments: a few harmonics,
/// an envelope, a touch of vibrato and a short echo. Deterministic: the same piece always
/// gives the same samples.
enum Synthesizer {
    struct Voice {
        let harmonics: [Double]
        let attack: Double
        let decay: Double  // per second, exponential; 0 holds the note
        let release: Double
        let vibrato: Double
    }

    static func voice(_ instrument: Instrument) -> Voice {
        switch instrument {
        case .piano: Voice(harmonics: [1, 0.5, 0.28, 0.12, 0.06], attack: 0.005, decay: 2.2, release: 0.08, vibrato: 0)
        case .strings: Voice(harmonics: [1, 0.6, 0.4, 0.3, 0.2, 0.12], attack: 0.08, decay: 0, release: 0.15, vibrato: 0.004)
        case .flute: Voice(harmonics: [1, 0.18, 0.06], attack: 0.04, decay: 0, release: 0.08, vibrato: 0.003)
        case .organ: Voice(harmonics: [1, 0.7, 0, 0.45, 0, 0, 0, 0.25], attack: 0.01, decay: 0, release: 0.05, vibrato: 0)
        case .musicBox: Voice(harmonics: [1, 0, 0.35, 0, 0, 0.15], attack: 0.002, decay: 4.5, release: 0.2, vibrato: 0)
        case .brass: Voice(harmonics: [1, 0.8, 0.6, 0.45, 0.3, 0.2], attack: 0.03, decay: 0.3, release: 0.08, vibrato: 0.002)
        case .accordion: Voice(harmonics: [1, 0.5, 0.5, 0.3, 0.25], attack: 0.02, decay: 0, release: 0.06, vibrato: 0.006)
        }
    }

    /// At least `minimumSeconds` of audio: the tune is repeated (the repeat an octave
    /// lower for variety when it fits) until it is long enough, ending on a whole tune.
    /// `shouldStop` is asked before each note: a piece takes seconds in a debug build.
    static func render(_ piece: DemoPiece, sampleRate: Int, minimumSeconds: Double, shouldStop: () -> Bool = { false }) throws -> [Int16] {
        let notes = try MelodyParser.parse(piece.notes)
        let secondsPerBeat = 60 / piece.tempo
        let tuneSeconds = notes.reduce(0) { $0 + $1.beats } * secondsPerBeat
        let repeats = max(1, Int((minimumSeconds / tuneSeconds).rounded(.up)))
        let total = Int((tuneSeconds * Double(repeats) + 1.0) * Double(sampleRate))
        var mix = [Double](repeating: 0, count: total)
        let voice = voice(piece.instrument)
        var start = 0.0
        for pass in 0..<repeats {
            let transpose = pass % 2 == 1 && (notes.compactMap(\.midi).min() ?? 0) >= 60 ? -12 : 0
            for note in notes {
                if shouldStop() { throw CancellationError() }
                let length = note.beats * secondsPerBeat
                if let midi = note.midi {
                    let frequency = 440 * pow(2, Double(midi + transpose - 69) / 12)
                    addNote(&mix, frequency: frequency, start: start, length: length, voice: voice, sampleRate: sampleRate)
                }
                start += length
            }
        }
        // A short echo gives the dry synthesis some room. The loops over every sample here
        // and in `addNote` are plain index loops over buffers: a debug build runs them for
        // every test server's demo library, and there iterators, closures and tuples cost
        // five times the arithmetic (generic metadata lookups per sample). Same samples.
        let delay = Int(0.11 * Double(sampleRate))
        return mix.withUnsafeMutableBufferPointer { buffer -> [Int16] in
            let count = buffer.count
            if delay < count {
                var i = count - 1
                while i >= delay {
                    buffer[i] += buffer[i - delay] * 0.22
                    i -= 1
                }
            }
            var peak = 0.0
            var i = 0
            while i < count {
                peak = max(peak, abs(buffer[i]))
                i += 1
            }
            let gain = peak > 0 ? 0.8 * Double(Int16.max) / peak : 0
            return [Int16](unsafeUninitializedCapacity: count) { samples, initialized in
                var i = 0
                while i < count {
                    samples[i] = Int16(clamping: Int((buffer[i] * gain).rounded()))
                    i += 1
                }
                initialized = count
            }
        }
    }

    private static func addNote(_ mix: inout [Double], frequency: Double, start: Double, length: Double, voice: Voice, sampleRate: Int) {
        let rate = Double(sampleRate)
        let first = Int(start * rate)
        let held = Int(length * rate)
        let releaseSamples = Int(voice.release * rate)
        let count = min(held + releaseSamples, mix.count - first)
        guard count > 0 else { return }
        let nyquist = rate / 2
        let twoPi = 2 * Double.pi
        // The partials below Nyquist, as two plain arrays (no tuples: see `render`).
        var frequencies: [Double] = []
        var amplitudes: [Double] = []
        var h = 0
        while h < voice.harmonics.count {
            let f = frequency * Double(h + 1)
            if f >= nyquist { break }
            if voice.harmonics[h] > 0 {
                frequencies.append(f)
                amplitudes.append(voice.harmonics[h])
            }
            h += 1
        }
        let partials = frequencies.count
        let attack = voice.attack
        let decay = voice.decay
        let vibrato = voice.vibrato
        let releaseLength = Double(max(1, releaseSamples))
        frequencies.withUnsafeBufferPointer { frequencies in
            amplitudes.withUnsafeBufferPointer { amplitudes in
                mix.withUnsafeMutableBufferPointer { mix in
                    var i = 0
                    while i < count {
                        let t = Double(i) / rate
                        var envelope = attack > 0 ? min(1, t / attack) : 1
                        if decay > 0 { envelope *= exp(-decay * t) }
                        if i >= held { envelope *= max(0, 1 - Double(i - held) / releaseLength) }
                        let wobble = 1 + vibrato * sin(twoPi * 5.5 * t)
                        var sample = 0.0
                        var k = 0
                        while k < partials {
                            sample += amplitudes[k] * sin(twoPi * frequencies[k] * t * wobble)
                            k += 1
                        }
                        mix[first + i] += sample * envelope
                        i += 1
                    }
                }
            }
        }
    }
}
