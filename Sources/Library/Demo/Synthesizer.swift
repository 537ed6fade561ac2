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
        // A short echo gives the dry synthesis some room.
        let delay = Int(0.11 * Double(sampleRate))
        if delay < mix.count {
            for i in stride(from: mix.count - 1, through: delay, by: -1) { mix[i] += mix[i - delay] * 0.22 }
        }
        let peak = mix.reduce(0) { max($0, abs($1)) }
        let gain = peak > 0 ? 0.8 * Double(Int16.max) / peak : 0
        return mix.map { Int16(clamping: Int(($0 * gain).rounded())) }
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
        for i in 0..<count {
            let t = Double(i) / rate
            var envelope = voice.attack > 0 ? min(1, t / voice.attack) : 1
            if voice.decay > 0 { envelope *= exp(-voice.decay * t) }
            if i >= held { envelope *= max(0, 1 - Double(i - held) / Double(max(1, releaseSamples))) }
            let wobble = 1 + voice.vibrato * sin(twoPi * 5.5 * t)
            var sample = 0.0
            for (h, amplitude) in voice.harmonics.enumerated() where amplitude > 0 {
                let f = frequency * Double(h + 1)
                if f >= nyquist { break }
                sample += amplitude * sin(twoPi * f * t * wobble)
            }
            mix[first + i] += sample * envelope
        }
    }
}
