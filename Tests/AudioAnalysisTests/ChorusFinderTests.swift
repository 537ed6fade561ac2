import Foundation
import Testing

@testable import AudioAnalysis

@Suite(.timeLimit(.minutes(5))) struct ChorusFinderTests {
    @Test func theFFTPutsAToneInItsBin() {
        let spectrum = PowerSpectrum(log2Size: 11)
        let tone = (0..<2048).map { Float(sin(2 * Double.pi * 440 * Double($0) / 11_025)) }
        var power = [Float](repeating: 0, count: 1024)
        spectrum.power(of: tone, from: 0, into: &power)
        let peak = power.indices.max { power[$0] < power[$1] } ?? -1
        // 440 Hz at 11,025 Hz in 2,048 bins: bin 81.7.
        #expect(peak == 82 || peak == 81, "\(peak)")
    }

    @Test func aChordsPitchClassesStandOutOfItsChroma() {
        // A minor (A, C, E) for two seconds.
        let samples = (0..<22_050).map { n -> Float in
            let t = Double(n) / 11_025
            return Float([220.0, 261.63, 329.63].reduce(0) { $0 + sin(2 * .pi * $1 * t) } / 3)
        }
        let features = ChromaSequence(samples: samples, sampleRate: 11_025)
        let middle = features.chroma[features.chroma.count / 2]
        let strongest = Set(middle.indices.sorted { middle[$0] > middle[$1] }.prefix(3))
        // Pitch classes from C = 0: A is 9, C is 0, E is 4.
        #expect(strongest == [9, 0, 4], "\(middle)")
    }

    /// Songs of a known shape (verse, chorus, verse, chorus, bridge, chorus, and variants): the
    /// start falls inside a chorus in most of them (in 56 of the first 60 this maker makes, in
    /// an optimized build). The issue's measure, 60 songs beside pychorus, belongs to a
    /// benchmark; this holds the behaviour.
    @Test func theChorusIsFoundInSongsOfAKnownShape() {
        var maker = SongMaker(random: .init(state: 7))
        let finder = ChorusFinder()
        let shapes = ["VCVCBC", "VCVCBCC", "BVCVCBC", "VVCVCBC"]
        var inside = 0
        var report: [String] = []
        // Six songs, the four shapes: a debug build makes and reads each in a few seconds.
        let songs = 6
        for n in 0..<songs {
            let song = maker.make(structure: shapes[n % shapes.count])
            guard let found = finder.find(song.samples) else {
                report.append("none")
                continue
            }
            let section = song.sections.first { $0.start <= found.start && found.start < $0.end }
            if section?.kind == "C" { inside += 1 }
            report.append(String(format: "%.1f s in %@", found.start, section.map { "\($0.kind)" } ?? "-"))
        }
        #expect(inside >= 5, "\(inside) of \(songs): \(report)")
    }

    @Test func aSongTooShortOrWithoutRepeatsHasNoChorus() {
        let finder = ChorusFinder()
        #expect(finder.find([Float](repeating: 0, count: 11_025 * 5)) == nil, "five seconds")
        let silence = finder.find([Float](repeating: 0, count: 11_025 * 60))
        #expect(silence?.confidence == 0, "\(String(describing: silence))")
    }
}
