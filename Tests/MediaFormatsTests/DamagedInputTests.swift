import Foundation
import Testing

@testable import MediaFormats

/// Damaged, truncated and lying files are refused with a reason and an offset, never a
/// crash or a hang.
@Suite(.timeLimit(.minutes(5))) struct DamagedInputTests {
    @Test func committedDamagedFixturesFailWithTheExpectedKind() throws {
        let dir = try Fixtures.url("damaged")
        let expected = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: dir.appendingPathComponent("expected.json")))
        #expect(expected.count >= 8 && expected.values.filter { $0 != "read" }.count >= 7)
        for (name, kind) in expected {
            do {
                let meta = try TagReader.read(path: dir.appendingPathComponent(name).path)
                // "read": damaged where a lenient reader reads on, and says what it skipped.
                if kind == "read" {
                    #expect(!meta.warnings.isEmpty && meta.duration != nil, "\(name)")
                    continue
                }
                Issue.record("\(name) was read as \(meta.format), expected a \(kind) error")
            } catch {
                #expect(error.kind.rawValue == kind, "\(name): \(error)")
                #expect(!error.message.isEmpty)
            }
        }
    }

    @Test(arguments: Fixtures.goodNames)
    func everyTruncationIsReadOrRefusedCleanly(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        // Every cut in the first 2 KB (where the headers are), then every 97th byte.
        var cuts = Array(0..<min(bytes.count, 2048))
        cuts += Array(stride(from: 2048, to: bytes.count, by: 97))
        for cut in cuts {
            do {
                _ = try TagReader.read(MemorySource(Array(bytes[0..<cut])))
            } catch {
                #expect(error.offset >= 0 && error.offset <= max(cut, bytes.count), "\(name) cut at \(cut): \(error)")
            }
        }
    }

    @Test(arguments: Fixtures.goodNames)
    func randomByteDamageNeverCrashes(name: String) throws {
        let original = try Fixtures.bytes(name)
        var rng = SplitMix64(seed: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                // Damage the headers more often than the audio: that is where parsers trip.
                let limit = Bool.random(using: &rng) ? min(bytes.count, 512) : bytes.count
                let i = Int.random(in: 0..<limit, using: &rng)
                bytes[i] = Bool.random(using: &rng) ? UInt8.random(in: 0...255, using: &rng) : [0x00, 0xFF, 0x7F, 0x80][Int.random(in: 0...3, using: &rng)]
            }
            _ = try? TagReader.read(MemorySource(bytes))
        }
    }

    @Test func anMP4BoxSizeSmallerThanItsHeaderIsMalformed() {
        var bytes: [UInt8] = [0, 0, 0, 20] + Array("ftypM4A ".utf8) + [0, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0, 0, 0, 4] + Array("moov".utf8)
        #expect(throws: MediaFormatError.self) { try TagReader.read(MemorySource(bytes)) }
        do {
            _ = try TagReader.read(MemorySource(bytes))
        } catch {
            #expect(error.kind == .malformed)
            #expect(error.offset == 20)
        }
    }

    @Test func aVorbisCommentCountLargerThanItsBlockIsRefused() {
        var block: [UInt8] = [0, 0, 0, 0]  // empty vendor
        block += [0xFF, 0xFF, 0xFF, 0x7F]  // two billion comments
        #expect(throws: MediaFormatError.self) { try VorbisComments.parse(block[...], base: 0) }
    }
}

/// A small deterministic generator so a failing damage case can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
