import Foundation
import MediaFormats

enum Fixtures {
    static var directory: URL {
        get throws {
            guard let url = Bundle.module.resourceURL?.appendingPathComponent("Fixtures") else { throw CocoaError(.fileNoSuchFile) }
            return url
        }
    }

    static func url(_ name: String) throws -> URL { try directory.appendingPathComponent(name) }

    static func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(name))) }

    /// expected.json: what mutagen read from each fixture.
    static func expectations() throws -> [String: [String: JSONValue]] {
        try JSONDecoder().decode([String: [String: JSONValue]].self, from: Data(contentsOf: url("expected.json")))
    }

    static let goodNames = [
        "id3v24.mp3", "id3v23-utf16.mp3", "vbr-xing.mp3", "id3v1-only.mp3", "itunes.m4a", "tagged.flac", "tagged.ogg",
        "tagged.opus", "tagged.wav", "tagged.aiff", "tagged.wma", "tagged.wv",
    ]
}

enum JSONValue: Decodable, Equatable {
    case string(String), number(Double)

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let d = try? c.decode(Double.self) { self = .number(d) } else { self = .string(try c.decode(String.self)) }
    }

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var number: Double? { if case .number(let n) = self { n } else { nil } }
}
