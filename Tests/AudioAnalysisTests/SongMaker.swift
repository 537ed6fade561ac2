import Foundation

/// Songs of a known structure, made from chords, a melody, a bass and a kick drum, for testing
/// the chorus finder: where each section is, and which are choruses. Each song has its own
/// tempo (78-150 bpm), key, timbre (four harmonics' weights), section lengths (4 or 8 bars) and
/// progressions; a second verse changes its tune (other words), a chorus never does, and
/// choruses are the loudest part, as in most pop songs.
struct SongMaker {
    struct Section { var kind: Character; var start: Double; var end: Double }
    struct Song { var samples: [Float]; var sections: [Section] }

    var random: SplitMix

    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func frequency(_ midi: Int) -> Double { 440 * pow(2, Double(midi - 69) / 12) }

    /// A sine from a table (the tests make minutes of audio in a debug build: the C library's
    /// sine per sample took seconds a song). `cycles`: the phase in whole turns.
    static let table: [Double] = (0..<4096).map { sin(2 * Double.pi * Double($0) / 4096) }
    static func sine(_ cycles: Double) -> Double {
        table[Int((cycles - cycles.rounded(.down)) * 4096) & 4095]
    }

    mutating func make(structure: String = "VCVCBC", sampleRate: Double = 11_025) -> Song {
        let bpm = Double.random(in: 78...150, using: &random)
        let beat = 60 / bpm
        let key = Int.random(in: 0..<12, using: &random)
        // Scale degrees (major) of each section's chords, one per bar.
        let progressions: [[Int]] = [[0, 4, 5, 3], [5, 3, 0, 4], [1, 4, 2, 5], [3, 4, 0, 0], [0, 5, 3, 4], [2, 5, 3, 4]].shuffled(using: &random)
        let verseChords = progressions[0], chorusChords = progressions[1], bridgeChords = progressions[2]
        let major = [0, 2, 4, 5, 7, 9, 11]
        func melody() -> [Int] { (0..<8).map { _ in Int.random(in: 0..<7, using: &random) } }
        let verseMelody = melody(), chorusMelody = melody(), bridgeMelody = melody()
        let harmonics = (0..<4).map { _ in Double.random(in: 0.1...1, using: &random) }
        let verseBars = [4, 8][Int.random(in: 0..<2, using: &random)]
        let chorusBars = [4, 8][Int.random(in: 0..<2, using: &random)]
        var verseNumber = 0
        var samples: [Float] = []
        var sections: [Section] = []
        var phase = 0.0
        for kind in structure {
            if kind == "V" { verseNumber += 1 }
            let verseTune = verseNumber > 1 ? verseMelody.map { ($0 + Int.random(in: 0..<3, using: &random)) % 7 } : verseMelody
            let (chords, tune, bars, loud): ([Int], [Int], Int, Double) =
                switch kind {
                case "C": (chorusChords, chorusMelody, chorusBars, 1.0)
                case "B": (bridgeChords, bridgeMelody, 4, 0.6)
                default: (verseChords, verseTune, verseBars, 0.55)
                }
            let start = Double(samples.count) / sampleRate
            for bar in 0..<bars {
                let degree = chords[bar % chords.count]
                let root = 48 + key + major[degree % 7]
                let triad = [
                    root, root + (major[(degree + 2) % 7] - major[degree % 7] + 12) % 12, root + (major[(degree + 4) % 7] - major[degree % 7] + 12) % 12,
                ]
                for beatIndex in 0..<4 {
                    let note = 72 + key + major[tune[(bar * 2 + beatIndex / 2) % tune.count] % 7]
                    let count = Int(beat * sampleRate)
                    // Cycles per sample of each partial: the chord's notes' harmonics, the tune, the bass.
                    var partials: [(step: Double, amplitude: Double)] = []
                    for pitch in triad {
                        for (h, amp) in harmonics.enumerated() {
                            partials.append((Self.frequency(pitch) * Double(h + 1) / sampleRate, 0.08 * amp / Double(h + 1)))
                        }
                    }
                    let tuneStep = Self.frequency(note) / sampleRate, bassStep = Self.frequency(root - 12) / sampleRate
                    let start = phase * sampleRate
                    for n in 0..<count {
                        let t = Double(n) / sampleRate
                        let at = start + Double(n)
                        var value = 0.0
                        for partial in partials { value += partial.amplitude * Self.sine(partial.step * at) }
                        value += 0.25 * Self.sine(tuneStep * at) * exp(-3 * t / beat)
                        value += 0.2 * Self.sine(bassStep * at)
                        if beatIndex % 2 == 0, t < 0.2 { value += 0.4 * Self.sine(55 * t) * exp(-t * 30) }
                        samples.append(Float(value * loud * 0.5))
                    }
                    phase += beat
                }
            }
            sections.append(Section(kind: kind, start: start, end: Double(samples.count) / sampleRate))
        }
        return Song(samples: samples, sections: sections)
    }
}
