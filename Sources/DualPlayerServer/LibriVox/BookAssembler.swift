import DualPlayer
import Foundation
import MediaFormats

/// Joins a LibriVox book's MP3 sections into one file the player treats like any audiobook:
/// one ID3v2 tag with the book's title and author and a chapter (CHAP) per section under a
/// table of contents (CTOC), then each section's MPEG frames in order, its own tags left out.
/// The chapters are then read back by Juke's own reader, as an upload's are.
enum BookAssembler {
    struct Section {
        let path: String
        let title: String
    }

    /// Writes the joined book to `output` and returns its chapters as the reader finds them.
    static func assemble(_ sections: [Section], title: String, author: String?, to output: String) throws -> ChapterList {
        // Each section's frames and length: from its Xing/VBRI frame count, or its size at a
        // constant bitrate; never by decoding.
        var spans: [(path: String, start: Int, end: Int, duration: Double, title: String)] = []
        var totalFrames = 0
        var shape: (first: MPEGFirstFrame, header: [UInt8])?
        for section in sections {
            var (start, end) = try frameRange(of: section.path)
            let head = try bytes(of: section.path, at: start, count: 4096)
            guard let first = MPEGFirstFrame(head[...]) else {
                throw MediaFormatError(.unsupported, at: start, "\((section.path as NSString).lastPathComponent) is not MPEG audio")
            }
            // The section's own Xing/Info frame is left out; its count is the section's length.
            var frames = (end - start) / first.frameLength
            if first.isInfoFrame {
                start += first.frameLength
                frames = first.declaredFrames ?? (end - start) / first.frameLength
                if let audio = MPEGFirstFrame(try bytes(of: section.path, at: start, count: 4)[...]), shape == nil {
                    shape = (audio, try bytes(of: section.path, at: start, count: 4))
                }
            } else if shape == nil {
                shape = (first, Array(head.prefix(4)))
            }
            guard end > start, frames > 0 else { throw MediaFormatError(.truncated, at: start, "a section has no audio") }
            totalFrames += frames
            spans.append((section.path, start, end, Double(frames * first.samplesPerFrame) / Double(first.sampleRate), section.title))
        }
        var tag = ID3v2Writer()
        tag.text("TALB", title)
        tag.text("TIT2", title)
        tag.text("TPE1", author)
        var at = 0.0
        var ids: [String] = []
        for (index, span) in spans.enumerated() {
            let id = "ch\(index)"
            let start = UInt32(min(Double(UInt32.max), (at * 1000).rounded()))
            at += span.duration
            let end = UInt32(min(Double(UInt32.max), (at * 1000).rounded()))
            tag.chapter(id: id, startMilliseconds: start, endMilliseconds: end, title: span.title)
            ids.append(id)
        }
        tag.tableOfContents(id: "toc", topLevel: true, children: ids)
        let partial = output + ".part"
        // One Xing frame for the whole book: players and Juke's reader take its length from it.
        let xing = shape.flatMap { $0.first.xingFrame(header: $0.header[...], frames: totalFrames) } ?? []
        FileManager.default.createFile(atPath: partial, contents: Data(tag.encode() + xing))
        guard let out = FileHandle(forWritingAtPath: partial) else {
            throw MediaFormatError(.unreadable, at: 0, "cannot write \(partial)")
        }
        do {
            try out.seekToEnd()
            for span in spans {
                guard let input = FileHandle(forReadingAtPath: span.path) else { throw MediaFormatError(.unreadable, at: 0, "cannot read \(span.path)") }
                defer { try? input.close() }
                try input.seek(toOffset: UInt64(span.start))
                var left = span.end - span.start
                while left > 0, let chunk = try input.read(upToCount: min(left, 1 << 20)), !chunk.isEmpty {
                    try out.write(contentsOf: chunk)
                    left -= chunk.count
                }
            }
            try out.close()
            try? FileManager.default.removeItem(atPath: output)
            try FileManager.default.moveItem(atPath: partial, toPath: output)
        } catch {
            try? out.close()
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
        return try ChapterReader.read(path: output)
    }

    static func bytes(of path: String, at offset: Int, count: Int) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw MediaFormatError(.unreadable, at: 0, "cannot read \(path)") }
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        return [UInt8](try handle.read(upToCount: count) ?? Data())
    }

    /// Where a file's MPEG frames are: after its ID3v2 tags, before an ID3v1 tag.
    static func frameRange(of path: String) throws -> (Int, Int) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw MediaFormatError(.unreadable, at: 0, "cannot read \(path)") }
        defer { try? handle.close() }
        let size = Int(try handle.seekToEnd())
        var start = 0
        while start + 10 <= size {
            try handle.seek(toOffset: UInt64(start))
            let header = [UInt8](try handle.read(upToCount: 10) ?? Data())
            guard header.count == 10, header[0] == 0x49, header[1] == 0x44, header[2] == 0x33 else { break }
            let length = header[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
            start += 10 + length + (header[5] & 0x10 != 0 ? 10 : 0)
        }
        var end = size
        if size - start >= 128 {
            try handle.seek(toOffset: UInt64(size - 128))
            if [UInt8](try handle.read(upToCount: 3) ?? Data()) == Array("TAG".utf8) { end = size - 128 }
        }
        guard end > start else { throw MediaFormatError(.truncated, at: start, "no audio after the tags") }
        return (start, end)
    }
}
