/// Where a file is in Juke's media storage, the same on every server: a relative name such
/// as `dual/books/<id>.mp3`, never an absolute path. The database keeps these, so a book
/// stored through one server is found by every other (each with its own data folder, or all
/// with one bucket).
///
/// A key is 1 to 512 bytes of segments separated by "/", each made of letters, digits and
/// `-_.` and none of them "." or "..": it is safe as a path under a folder and as an object
/// name in a bucket, and needs no escaping in either.
public struct StorageKey: Hashable, Sendable, CustomStringConvertible, Comparable {
    public let rawValue: String

    public init?(_ raw: String) {
        guard (1...512).contains(raw.utf8.count) else { return nil }
        let segments = raw.split(separator: "/", omittingEmptySubsequences: false)
        for segment in segments {
            guard !segment.isEmpty, segment != ".", segment != ".." else { return nil }
            guard segment.utf8.allSatisfy(Self.isAllowed) else { return nil }
        }
        rawValue = raw
    }

    /// A key under a prefix: `StorageKey("dual/books", "x.mp3")`.
    public init?(_ prefix: String, _ name: String) {
        self.init(prefix + "/" + name)
    }

    /// A key made of parts Juke chose itself (ids, fixed names), checked all the same: a
    /// part that makes no key is an error, not a crash.
    public init(checking raw: String) throws(MediaStoreError) {
        guard let key = StorageKey(raw) else { throw .invalidKey(raw) }
        self = key
    }

    public var description: String { rawValue }

    /// The last segment ("x.mp3").
    public var name: Substring { rawValue.split(separator: "/").last ?? Substring(rawValue) }

    /// The name's extension, lowercased, or "".
    public var pathExtension: String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    public static func < (lhs: StorageKey, rhs: StorageKey) -> Bool { lhs.rawValue < rhs.rawValue }

    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): true
        default: false
        }
    }
}
