import MediaFormats

/// libFuzzer entry point: any bytes must give chapters or a MediaFormatError, never a crash
/// or a hang, and chapters that are read must be playable (finite, in order, not overlapping).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChapterReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let list = try? ChapterReader.read(MemorySource(bytes)) else { return 0 }
    var previousEnd = 0.0
    for chapter in list.chapters {
        precondition(chapter.start.isFinite && chapter.end.isFinite && chapter.start >= previousEnd && chapter.end >= chapter.start)
        previousEnd = chapter.end
    }
    precondition(!list.chapters.isEmpty)
    return 0
}
