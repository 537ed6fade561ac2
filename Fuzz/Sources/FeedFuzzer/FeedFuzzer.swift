import Feeds

/// libFuzzer entry point: any bytes must give a feed or a FeedError, never a crash or a
/// hang; and the same feed however the bytes are cut (the first byte picks the piece size),
/// since the server reads feeds as they arrive. The same bytes go through the OPML reader,
/// which must give subscriptions with addresses or an error, and the transcript and chapter
/// readers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let body = Array(bytes.dropFirst())
    let whole = try? FeedReader.parse(body)
    let piece = Int(first % 32) + 1
    var items: [FeedItem] = []
    let reader = FeedReader { items.append($0) }
    var info: FeedInfo?
    do {
        var i = 0
        while i < body.count {
            try reader.read(body[i..<min(body.count, i + piece)])
            i += piece
        }
        info = try reader.finish()
    } catch {
        info = nil
    }
    precondition(whole?.info == info, "pieces of \(piece) read another feed")
    if let whole { precondition(whole.items == items, "pieces of \(piece) read other items") }
    if let subscriptions = try? OPML.read(body) {
        precondition(subscriptions.allSatisfy { !$0.feedURL.isEmpty } && Set(subscriptions.map(\.feedURL)).count == subscriptions.count)
    }
    // The transcript readers and the chapters file: cues and chapters in time order, with
    // finite times, or an error.
    for type in ["application/x-subrip", "text/vtt", "application/json"] {
        if let transcript = try? TranscriptReader.read(body, type: type) {
            precondition(transcript.cues.allSatisfy { $0.start.isFinite && $0.end >= $0.start })
            precondition(zip(transcript.cues, transcript.cues.dropFirst()).allSatisfy { $0.start <= $1.start })
        }
    }
    if let chapters = try? JSONChapters.read(body) {
        precondition(zip(chapters, chapters.dropFirst()).allSatisfy { $0.start <= $1.start && ($0.end ?? $1.start) >= $0.start })
    }
    return 0
}
