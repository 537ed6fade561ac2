import MediaFormats

/// libFuzzer entry point: any bytes must be read or refused with a MediaFormatError, never
/// crash, hang or read out of bounds (run under AddressSanitizer too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTagReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? TagReader.read(MemorySource(bytes))
    return 0
}
