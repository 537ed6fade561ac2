import MediaFormats

/// A stream's body as the station sends it (perhaps chunked, perhaps with ICY metadata
/// every `icy-metaint` bytes) turned into audio and titles.
struct StreamBodyDecoder {
    private var chunked: ChunkedBodyDecoder?
    private var icy: ICYDemuxer?

    init(head: StreamResponseHead) {
        chunked = head.isChunked ? ChunkedBodyDecoder() : nil
        icy = head.metadataInterval.map(ICYDemuxer.init(interval:))
    }

    var isFinished: Bool { chunked?.isFinished ?? false }

    mutating func feed(_ bytes: [UInt8]) throws(StreamRelayError) -> [StreamPart] {
        let body: [ArraySlice<UInt8>]
        if chunked != nil {
            do { body = try chunked?.feed(bytes[...]) ?? [] } catch { throw .malformed(error.message) }
        } else {
            body = [bytes[...]]
        }
        guard icy != nil else { return body.filter { !$0.isEmpty }.map { .audio(Array($0)) } }
        var parts: [StreamPart] = []
        for piece in body {
            for part in icy?.feed(piece) ?? [] {
                switch part {
                case .audio(let audio):
                    if case .audio(let earlier)? = parts.last {
                        parts[parts.count - 1] = .audio(earlier + audio)
                    } else if !audio.isEmpty {
                        parts.append(.audio(Array(audio)))
                    }
                case .metadata(let metadata) where metadata.fields["StreamTitle"] != nil:
                    parts.append(.title(metadata.streamTitle))
                case .metadata:
                    continue
                }
            }
        }
        return parts
    }
}
