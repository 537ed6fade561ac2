/// Reads DSF (Sony's DSD stream files): the "DSD " chunk (the file's size and where its
/// metadata is), the "fmt " chunk (sampling frequency, channels, sample count) for the
/// duration, and the ID3v2 tag at the metadata pointer, at the end of the file.
/// Little-endian throughout.
enum DSFReader {
    static func read(_ source: some ByteSource) throws(MediaFormatError) -> AudioMetadata {
        let dsd = try source.readExactly(at: 0, count: 28, what: "DSD chunk")
        guard dsd[0..<4].elementsEqual("DSD ".utf8) else { throw MediaFormatError(.unsupported, at: 0, "not a DSF file") }
        let dsdSize = Int(u64le(dsd, 4))
        let metadataOffset = Int(clamping: u64le(dsd, 20))
        guard dsdSize == 28 else { throw MediaFormatError(.malformed, at: 4, "DSD chunk is \(dsdSize) bytes, not 28") }
        let fmt = try source.readExactly(at: 28, count: 52, what: "fmt chunk")
        guard fmt[0..<4].elementsEqual("fmt ".utf8) else { throw MediaFormatError(.malformed, at: 28, "DSF file has no fmt chunk after DSD") }
        var meta = AudioMetadata(format: .dsf)
        let channels = Int(Bytes.u32le(fmt[...], 24))
        let rate = Int(Bytes.u32le(fmt[...], 28))
        let bits = Int(Bytes.u32le(fmt[...], 32))
        let samples = u64le(fmt, 36)
        guard rate > 0, (1...8).contains(channels) else { throw MediaFormatError(.malformed, at: 52, "DSF sampling frequency or channels out of range") }
        meta.sampleRate = rate
        meta.channels = channels
        meta.duration = Double(samples) / Double(rate)
        meta.bitrate = rate * channels * max(bits, 1)
        if metadataOffset > 0 {
            if metadataOffset + 10 <= source.size, let header = try? source.readExactly(at: metadataOffset, count: 10, what: "ID3v2 header"),
                let size = ID3v2Tag.declaredSize(header: header), metadataOffset + size <= source.size
            {
                do {
                    let bytes = try source.readExactly(at: metadataOffset, count: size, what: "ID3v2 tag")
                    ID3v2Metadata.apply(try ID3v2Tag(bytes: bytes, fileOffset: metadataOffset), to: &meta)
                    meta.format = .dsf
                } catch {
                    meta.warnings.append("DSF ID3v2 tag at byte \(metadataOffset) is damaged and was skipped (\(error))")
                }
            } else {
                meta.warnings.append("DSF metadata pointer \(metadataOffset) does not lead to an ID3v2 tag")
            }
        }
        return meta
    }

    static func u64le(_ b: [UInt8], _ i: Int) -> UInt64 { Bytes.u64le(b[...], i) }
}
