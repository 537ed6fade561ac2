/// An MPEG audio frame header (MPEG 1, 2 and 2.5; layers I, II, III) and the Xing/Info
/// and VBRI headers that give a variable-bitrate file's frame count.
struct MPEGAudioFrame {
    enum Version { case mpeg1, mpeg2, mpeg25 }

    let version: Version
    let layer: Int
    let bitrate: Int  // bits per second
    let sampleRate: Int
    let channels: Int
    let frameLength: Int
    let samplesPerFrame: Int

    /// Parses the four header bytes, or nil if they are not a valid frame header.
    init?(_ h: ArraySlice<UInt8>) {
        guard h.count >= 4 else { return nil }
        let b0 = h[h.startIndex], b1 = h[h.startIndex + 1], b2 = h[h.startIndex + 2], b3 = h[h.startIndex + 3]
        guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        switch (b1 >> 3) & 0x03 {
        case 0: version = .mpeg25
        case 2: version = .mpeg2
        case 3: version = .mpeg1
        default: return nil
        }
        switch (b1 >> 1) & 0x03 {
        case 1: layer = 3
        case 2: layer = 2
        case 3: layer = 1
        default: return nil
        }
        let bitrateIndex = Int(b2 >> 4)
        let rateIndex = Int((b2 >> 2) & 0x03)
        guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let padding = Int((b2 >> 1) & 0x01)
        channels = (b3 >> 6) == 3 ? 1 : 2

        let kbps: [Int]
        switch (version, layer) {
        case (.mpeg1, 1): kbps = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (.mpeg1, 2): kbps = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (.mpeg1, _): kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (_, 1): kbps = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        default: kbps = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        bitrate = kbps[bitrateIndex] * 1000
        let rates: [Int] =
            switch version {
            case .mpeg1: [44100, 48000, 32000]
            case .mpeg2: [22050, 24000, 16000]
            case .mpeg25: [11025, 12000, 8000]
            }
        sampleRate = rates[rateIndex]
        switch (version, layer) {
        case (_, 1): samplesPerFrame = 384
        case (_, 2): samplesPerFrame = 1152
        case (.mpeg1, _): samplesPerFrame = 1152
        default: samplesPerFrame = 576
        }
        if layer == 1 {
            frameLength = (12 * bitrate / sampleRate + padding) * 4
        } else {
            frameLength = samplesPerFrame / 8 * bitrate / sampleRate + padding
        }
        guard frameLength >= 4 else { return nil }
    }

    /// Offset of the Xing/Info header inside a layer III frame (after the side information).
    var xingOffset: Int {
        switch (version, channels) {
        case (.mpeg1, 1): 4 + 17
        case (.mpeg1, _): 4 + 32
        case (_, 1): 4 + 9
        default: 4 + 17
        }
    }

    /// Total frame count from a Xing/Info or VBRI header in `frame` (the first frame's bytes).
    /// The samples LAME added before and after the music (its encoder delay and padding,
    /// from the LAME tag after a Xing/Info header), which a gapless duration leaves out as
    /// mutagen does; nil without such a tag. Only LAME's own tags are read (as mutagen):
    /// "LAME3.90" on, and "L3.99".
    func encoderTrim(_ frame: ArraySlice<UInt8>) -> Int? {
        let x = frame.startIndex + xingOffset
        guard x + 8 <= frame.endIndex else { return nil }
        let tag = frame[x..<x + 4]
        guard tag.elementsEqual("Xing".utf8) || tag.elementsEqual("Info".utf8) else { return nil }
        let flags = Bytes.u32be(frame, x + 4)
        var lame = x + 8
        if flags & 0x1 != 0 { lame += 4 }
        if flags & 0x2 != 0 { lame += 4 }
        if flags & 0x4 != 0 { lame += 100 }
        if flags & 0x8 != 0 { lame += 4 }
        guard lame + 24 <= frame.endIndex else { return nil }
        let version = frame[lame..<lame + 9]
        if version.starts(with: "LAME".utf8) {
            // "LAME3.98r": versions before 3.90 wrote no tag with these fields.
            let digits = version.dropFirst(4)
            guard digits.count >= 4, digits.first == UInt8(ascii: "3"), digits.dropFirst().first == UInt8(ascii: "."),
                let minor = Int(String(decoding: digits.dropFirst(2).prefix(while: { $0 >= 0x30 && $0 <= 0x39 }), as: UTF8.self)), minor >= 90
            else { return nil }
        } else if !version.starts(with: "L3.99".utf8) {
            return nil
        }
        let b = lame + 21
        let delay = Int(frame[b]) << 4 | Int(frame[b + 1]) >> 4
        let padding = Int(frame[b + 1] & 0x0F) << 8 | Int(frame[b + 2])
        return delay + padding
    }

    func vbrFrameCount(_ frame: ArraySlice<UInt8>) -> Int? {
        let s = frame.startIndex
        let x = s + xingOffset
        if x + 12 <= frame.endIndex {
            let tag = frame[x..<x + 4]
            if tag.elementsEqual("Xing".utf8) || tag.elementsEqual("Info".utf8) {
                let flags = Bytes.u32be(frame, x + 4)
                if flags & 0x1 != 0 {
                    let count = Int(Bytes.u32be(frame, x + 8))
                    return count > 0 ? count : nil
                }
            }
        }
        let v = s + 4 + 32
        if v + 18 <= frame.endIndex, frame[v..<v + 4].elementsEqual("VBRI".utf8) {
            let count = Int(Bytes.u32be(frame, v + 14))
            return count > 0 ? count : nil
        }
        return nil
    }
}

/// The first MPEG audio frame of a stream, for joining MP3 files: its shape, and whether it is
/// a Xing/Info/VBRI header frame (silent, and declaring the file's frame count) rather than audio.
public struct MPEGFirstFrame: Sendable, Equatable {
    public let frameLength: Int
    public let samplesPerFrame: Int
    public let sampleRate: Int
    /// The frame count a Xing/Info/VBRI header declares.
    public let declaredFrames: Int?
    /// True when this frame is the header frame: joined files leave it out.
    public let isInfoFrame: Bool

    /// Reads the frame starting `bytes` (its first few hundred bytes are enough).
    public init?(_ bytes: ArraySlice<UInt8>) {
        guard let frame = MPEGAudioFrame(bytes) else { return nil }
        frameLength = frame.frameLength
        samplesPerFrame = frame.samplesPerFrame
        sampleRate = frame.sampleRate
        let start = bytes.startIndex
        let xing = start + frame.xingOffset
        let tagged =
            (xing + 4 <= bytes.endIndex && (bytes[xing..<xing + 4].elementsEqual("Xing".utf8) || bytes[xing..<xing + 4].elementsEqual("Info".utf8)))
            || (start + 40 <= bytes.endIndex && bytes[(start + 36)..<(start + 40)].elementsEqual("VBRI".utf8))
        isInfoFrame = frame.layer == 3 && tagged
        declaredFrames = isInfoFrame ? frame.vbrFrameCount(bytes) : nil
    }

    /// A Xing header frame shaped like this one, declaring `frames` audio frames: what a player
    /// reads a joined file's length from.
    public func xingFrame(header: ArraySlice<UInt8>, frames: Int) -> [UInt8]? {
        guard let frame = MPEGAudioFrame(header), frame.frameLength >= frame.xingOffset + 12 else { return nil }
        var bytes = [UInt8](repeating: 0, count: frame.frameLength)
        for index in 0..<4 { bytes[index] = header[header.startIndex + index] }
        let at = frame.xingOffset
        bytes.replaceSubrange(at..<(at + 4), with: Array("Xing".utf8))
        bytes[at + 7] = 0x01  // flags: the frame count follows
        let count = UInt32(clamping: frames)
        bytes[at + 8] = UInt8(count >> 24)
        bytes[at + 9] = UInt8((count >> 16) & 0xFF)
        bytes[at + 10] = UInt8((count >> 8) & 0xFF)
        bytes[at + 11] = UInt8(count & 0xFF)
        return bytes
    }
}
