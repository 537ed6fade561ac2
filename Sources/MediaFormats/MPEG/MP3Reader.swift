/// Reads an MP3: ID3v2 at the start (possibly several), ID3v1 at the end, and the
/// duration from the first audio frame (Xing/VBRI frame count, or the bitrate for CBR).
enum MP3Reader {
    /// How far past the tags to search for the first frame; some files carry junk first.
    static let syncSearchWindow = 64 * 1024

    static func read(_ source: some ByteSource) throws(MediaFormatError) -> AudioMetadata {
        var meta = AudioMetadata(format: .mp3)
        var audioStart = 0
        // Some writers prepend more than one ID3v2 tag; the first wins for each field.
        while let header = try? source.readExactly(at: audioStart, count: 10, what: "ID3v2 header"),
            let size = ID3v2Tag.declaredSize(header: header)
        {
            let bytes = try source.readExactly(at: audioStart, count: size, what: "ID3v2 tag")
            let tag = try ID3v2Tag(bytes: bytes, fileOffset: audioStart)
            ID3v2Metadata.apply(tag, to: &meta)
            audioStart += size
        }

        var audioEnd = source.size
        if source.size >= ID3v1Tag.size,
            let v1 = ID3v1Tag.parse(try source.read(at: source.size - ID3v1Tag.size, count: ID3v1Tag.size))
        {
            meta.fillGaps(from: v1)
            audioEnd -= ID3v1Tag.size
        }
        // An APEv2 tag (foobar2000 and mp3gain write them) fills what ID3 left out; where it is
        // the only tag, it is the tag. Its bytes are not audio.
        if let ape = APEv2Tag.read(source) {
            var tagged = AudioMetadata(format: .mp3)
            APEv2Tag.apply(ape.items, to: &tagged)
            meta.fillGaps(from: tagged)
            meta.warnings += ape.warnings
            audioEnd = min(audioEnd, ape.start)
        }

        let window = try source.read(at: audioStart, count: syncSearchWindow)
        let audioBytes = max(0, audioEnd - audioStart)
        let atEnd = window.count >= audioBytes
        guard
            let (frameStart, frame) = firstFrame(
                in: window[..<min(window.count, audioBytes)], atEnd: atEnd, required: framesInARow(audioBytes: audioBytes))
        else {
            if audioStart > 0 || meta.title != nil {
                // Tags but no audio we recognise: report it rather than invent a duration.
                throw MediaFormatError(.malformed, at: audioStart, "no MPEG audio frame after the tags")
            }
            // The last format tried when the first bytes named none (TagReader): say so plainly.
            throw MediaFormatError(.unsupported, at: 0, "not an audio format Juke reads (no known header, and no MP3 frames)")
        }
        let searched = window[frameStart..<min(window.count, audioBytes)]
        guard framedShare(of: searched, like: frame) >= minFramedShare else {
            throw MediaFormatError(.unsupported, at: audioStart + frameStart, "not audio: what looks like MP3 frames there does not go on as frames")
        }
        meta.sampleRate = frame.sampleRate
        meta.channels = frame.channels
        let frameBytes = window[frameStart..<min(window.endIndex, frameStart + frame.frameLength)]
        if let frames = frame.vbrFrameCount(frameBytes) {
            var samples = frames * frame.samplesPerFrame
            // Gapless: LAME's delay and padding are not music (old LAMEs wrote bogus ones
            // for short files, which would leave less than nothing: then they are ignored).
            if let trim = frame.encoderTrim(frameBytes), samples - trim >= 0 { samples -= trim }
            let seconds = Double(samples) / Double(frame.sampleRate)
            meta.duration = seconds
            let audioBytes = audioEnd - audioStart - frameStart
            if seconds > 0 { meta.bitrate = Int(Double(audioBytes * 8) / seconds) }
        } else {
            let audioBytes = max(0, audioEnd - audioStart - frameStart)
            meta.bitrate = frame.bitrate
            meta.duration = Double(audioBytes) * 8 / Double(frame.bitrate)
        }
        return meta
    }

    /// Frames in a row that make a file audio. Four in a row, as mutagen asks, still turn up
    /// in a program's bytes (a quarter of 200 KB slices of a test binary read as Layer I at
    /// 32 kHz: x86 code is full of `FF FF`), so the run must also grow with the file, as
    /// ffmpeg's probe asks of a raw MP3 (a run of at least one frame per 10 kB): a real MP3's
    /// frames follow one another from the first to the last.
    static let minFramesInARow = 4
    static let maxFramesInARow = 32

    static func framesInARow(audioBytes: Int) -> Int { min(maxFramesInARow, max(minFramesInARow, audioBytes / 10_000)) }

    /// How much of what follows the first frame must be frames. A real MP3's frames follow
    /// one another to its end (a decoder reads nothing else); a program's bytes hold runs of
    /// what parses as frame headers (x86 code is full of `FF FF`: `/bin/ls` read as 17 s of
    /// MPEG Layer I, and ffprobe agreed), but they break off and leave most bytes unframed.
    static let minFramedShare = 0.75

    /// The share of `bytes` (from a frame of the kind of `first`) that a decoder would read as
    /// frames: it follows frame after frame, and where one breaks off it looks for the next
    /// header byte by byte, counting the bytes passed over as not audio.
    static func framedShare(of bytes: ArraySlice<UInt8>, like first: MPEGAudioFrame) -> Double {
        guard !bytes.isEmpty else { return 1 }
        var framed = 0
        var i = bytes.startIndex
        while i + 4 <= bytes.endIndex {
            if bytes[i] == 0xFF, let frame = MPEGAudioFrame(bytes[i..<i + 4]), frame.version == first.version, frame.layer == first.layer,
                frame.sampleRate == first.sampleRate, frame.frameLength > 0
            {
                framed += min(frame.frameLength, bytes.endIndex - i)
                i += frame.frameLength
            } else {
                i += 1
            }
        }
        if i < bytes.endIndex, framed > 0 { framed += bytes.endIndex - i }  // a last header cut by the window
        return Double(framed) / Double(bytes.count)
    }

    /// The first offset where a run of `required` valid frame headers begins, each exactly one
    /// frame after the last with the same version, layer and sample rate, or a frame with a VBR
    /// header. A shorter run counts
    /// where the window cuts it (four frames at least), where it ends with the audio (`atEnd`: a
    /// short file; two frames at least), and a single frame only where it is all the audio
    /// there is (found by searching, it is as likely two bytes of another format: OptimFROG was
    /// read as a millisecond of MP3 until this rule).
    static func firstFrame(in window: ArraySlice<UInt8>, atEnd: Bool = true, required: Int = minFramesInARow) -> (Int, MPEGAudioFrame)? {
        var i = window.startIndex
        while i + 4 <= window.endIndex {
            if window[i] == 0xFF, let frame = MPEGAudioFrame(window[i..<i + 4]) {
                var count = 1
                var next = i + frame.frameLength
                while count < required, next + 4 <= window.endIndex, let following = MPEGAudioFrame(window[next..<next + 4]),
                    following.version == frame.version, following.sampleRate == frame.sampleRate, following.layer == frame.layer
                {
                    count += 1
                    next += following.frameLength
                }
                let runsOut = next + 4 > window.endIndex
                // A Xing, Info or VBRI header where an encoder writes it vouches for its frame
                // alone, as mutagen takes it (its count of frames is the file's duration).
                let vouched = frame.vbrFrameCount(window[i..<min(window.endIndex, i + frame.frameLength)]) != nil
                if count >= required || vouched || (runsOut && !atEnd && count >= minFramesInARow)
                    || (runsOut && atEnd && (count >= 2 || i == window.startIndex))
                {
                    return (i, frame)
                }
            }
            i += 1
        }
        return nil
    }
}
