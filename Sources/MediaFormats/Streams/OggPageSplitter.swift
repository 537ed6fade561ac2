/// Cuts a live Ogg stream (Vorbis, Opus, FLAC in Ogg) into whole pages as bytes arrive.
///
/// A listener who joins a live Ogg stream midway can decode nothing without the stream's
/// header pages (Vorbis's identification, comment and setup packets; Opus's OpusHead and
/// OpusTags), and must start at a page boundary. So the relay keeps the headers of the current
/// logical stream (a new one begins with a BOS page, as Icecast does at each title change)
/// and sends newcomers the headers, then whole pages.
public struct OggPageSplitter: Sendable {
    public struct Page: Sendable, Equatable {
        public var bytes: [UInt8]
        /// Beginning of a logical stream: its header pages follow.
        public var isFirst: Bool
        /// The granule position; 0 on header pages, -1 (all ones) when no packet ends here.
        public var granule: UInt64
        public var serial: UInt32
    }

    private var pending: [UInt8] = []
    /// Bytes skipped looking for a page start (damage, or a stream that is not Ogg).
    public private(set) var skipped = 0
    /// The largest page Ogg allows: 27 + 255 + 255 × 255.
    static let maximumPage = 27 + 255 + 255 * 255

    public init() {}

    public mutating func feed(_ bytes: ArraySlice<UInt8>) -> [Page] {
        pending.append(contentsOf: bytes)
        var pages: [Page] = []
        var start = 0
        while true {
            guard let found = Self.capture(in: pending, from: start) else {
                // Keep the last three bytes: they may be the start of "OggS".
                let keep = max(start, pending.count - 3)
                skipped += keep - start
                start = keep
                break
            }
            skipped += found - start
            start = found
            guard pending.count - start >= 27 else { break }
            let segments = Int(pending[start + 26])
            guard pending.count - start >= 27 + segments else { break }
            var length = 27 + segments
            for index in 0..<segments { length += Int(pending[start + 27 + index]) }
            guard pending[start + 4] == 0 else {
                // Version must be 0: not a page, look further.
                start += 1
                continue
            }
            guard pending.count - start >= length else { break }
            let page = Array(pending[start..<(start + length)])
            var granule: UInt64 = 0
            for index in (0..<8).reversed() { granule = granule << 8 | UInt64(page[6 + index]) }
            var serial: UInt32 = 0
            for index in (0..<4).reversed() { serial = serial << 8 | UInt32(page[14 + index]) }
            pages.append(Page(bytes: page, isFirst: page[5] & 0x02 != 0, granule: granule, serial: serial))
            start += length
        }
        pending.removeFirst(start)
        return pages
    }

    static func capture(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 4 <= bytes.count {
            if bytes[index] == 0x4F, bytes[index + 1] == 0x67, bytes[index + 2] == 0x67, bytes[index + 3] == 0x53 { return index }
            index += 1
        }
        return nil
    }
}

extension OggPageSplitter.Page {
    /// Header pages carry granule 0; a page in which no packet ends carries all ones, and
    /// while the headers are still coming that is a header spanning pages.
    public var couldBeHeader: Bool { granule == 0 || granule == UInt64.max }
}
