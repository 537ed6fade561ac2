import MediaFormats

/// libFuzzer entry point for what the radio relay reads off a station's connection: the
/// answer's head, chunked coding, ICY metadata, Ogg pages, the stream sniffer, playlists and
/// HLS playlists' rewriting.
/// Any bytes, cut at a point the input chooses, must give the same result as uncut (framing
/// survives any TCP segmentation) or a MediaFormatError, never a crash or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStreamFraming(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let control = bytes.first else { return 0 }
    let body = bytes.dropFirst()
    let cut = body.startIndex + (body.isEmpty ? 0 : Int(control) % (body.count + 1))

    if let (head, length) = try? StreamResponseHead.parse(body) {
        precondition(length <= body.count && head.status >= 100 && head.status <= 999)
        _ = head.contentType
        _ = head.metadataInterval
    }

    var whole = ChunkedBodyDecoder()
    var split = ChunkedBodyDecoder()
    let wholeOut = try? whole.feed(body)
    if let wholeOut, let first = try? split.feed(body[body.startIndex..<cut]), let second = try? split.feed(body[cut...]) {
        precondition((first + second).flatMap { $0 } == wholeOut.flatMap { $0 })
    }

    let interval = Int(control) + 1
    var icyWhole = ICYDemuxer(interval: interval)
    var icySplit = ICYDemuxer(interval: interval)
    let audioWhole = icyWhole.feed(body).compactMap { if case .audio(let a) = $0 { Array(a) } else { nil } }.flatMap { $0 }
    let audioSplit = (icySplit.feed(body[body.startIndex..<cut]) + icySplit.feed(body[cut...]))
        .compactMap { if case .audio(let a) = $0 { Array(a) } else { nil } }.flatMap { $0 }
    precondition(audioWhole == audioSplit)

    var oggWhole = OggPageSplitter()
    var oggSplit = OggPageSplitter()
    let pages = oggWhole.feed(body)
    precondition(pages == oggSplit.feed(body[body.startIndex..<cut]) + oggSplit.feed(body[cut...]))

    // Every address of a playlist passes through the rewriter once; a rewritten playlist is
    // still a playlist.
    if let text = M3U8Rewriter.rewrite(body, { "/relay?u=" + String($0.utf8.count) }) {
        precondition(text.hasPrefix("#EXTM3U"))
    }
    _ = StreamKind.sniff(contentType: nil, firstBytes: body)
    _ = StationPlaylist.streams(in: body)
    return 0
}
