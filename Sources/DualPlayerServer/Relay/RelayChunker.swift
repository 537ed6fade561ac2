import MediaFormats

/// Cuts what the station sends into the chunks the fan-out shares: MP3 and AAC as they come
/// (their decoders find the next frame by its sync word), Ogg as whole pages, each marked as
/// a header page or audio, so that a newcomer can start at a page with the headers it needs.
struct RelayChunker: Sendable {
    private var ogg: OggPageSplitter?
    private var collectingHeaders = false

    init(kind: StreamKind) {
        ogg = kind == .ogg ? OggPageSplitter() : nil
    }

    mutating func chunks(_ audio: [UInt8]) -> [(bytes: [UInt8], role: RelayRole)] {
        guard ogg != nil else { return [(audio, .audio)] }
        var out: [(bytes: [UInt8], role: RelayRole)] = []
        for page in ogg?.feed(audio[...]) ?? [] {
            if page.isFirst {
                collectingHeaders = true
                out.append((page.bytes, .firstHeader))
            } else if collectingHeaders, page.couldBeHeader {
                out.append((page.bytes, .header))
            } else {
                collectingHeaders = false
                out.append((page.bytes, .audio))
            }
        }
        return out
    }
}
