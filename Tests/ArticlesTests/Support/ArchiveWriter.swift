import CompressNIO
import NIOCore

@testable import Articles

/// Deflate with zlib (compress-nio), for tests that build small hostile inputs that inflate large.
enum TestDeflate {
    /// Raw DEFLATE (as inside a ZIP).
    static func raw(_ bytes: [UInt8]) throws -> [UInt8] { try compress(bytes, .deflate()) }
    /// zlib-wrapped (as a PDF's FlateDecode stream).
    static func zlib(_ bytes: [UInt8]) throws -> [UInt8] { try compress(bytes, .zlib()) }

    private static func compress(_ bytes: [UInt8], _ algorithm: CompressionAlgorithm) throws -> [UInt8] {
        var buffer = ByteBuffer(bytes: bytes)
        let out = try buffer.compress(with: algorithm)
        return Array(out.readableBytesView)
    }
}

/// A ZIP archive written in the test (an ePub is one): each file stored or deflated, with its
/// CRC-32 and sizes, a central directory and its end record.
struct ZIPWriter {
    struct File {
        var name: String
        var bytes: [UInt8]
        var deflated: Bool
    }

    var files: [File] = []

    mutating func add(_ name: String, _ text: String, deflated: Bool = false) { files.append(File(name: name, bytes: Array(text.utf8), deflated: deflated)) }
    mutating func add(_ name: String, bytes: [UInt8], deflated: Bool = false) { files.append(File(name: name, bytes: bytes, deflated: deflated)) }

    func archive() throws -> [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        func u16(_ v: Int, _ to: inout [UInt8]) { to += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int, _ to: inout [UInt8]) { u16(v & 0xFFFF, &to); u16(v >> 16 & 0xFFFF, &to) }
        for file in files {
            let data = file.deflated ? try TestDeflate.raw(file.bytes) : file.bytes
            let crc = Int(CRC32.checksum(file.bytes))
            let name = Array(file.name.utf8)
            let offset = out.count
            u32(0x0403_4B50, &out)
            u16(20, &out); u16(0, &out); u16(file.deflated ? 8 : 0, &out); u16(0, &out); u16(0, &out)
            u32(crc, &out); u32(data.count, &out); u32(file.bytes.count, &out)
            u16(name.count, &out); u16(0, &out)
            out += name + data
            u32(0x0201_4B50, &directory)
            u16(20, &directory); u16(20, &directory); u16(0, &directory); u16(file.deflated ? 8 : 0, &directory); u16(0, &directory); u16(0, &directory)
            u32(crc, &directory); u32(data.count, &directory); u32(file.bytes.count, &directory)
            u16(name.count, &directory); u16(0, &directory); u16(0, &directory); u16(0, &directory); u16(0, &directory)
            u32(0, &directory); u32(offset, &directory)
            directory += name
        }
        let start = out.count
        out += directory
        u32(0x0605_4B50, &out)
        u16(0, &out); u16(0, &out); u16(files.count, &out); u16(files.count, &out)
        u32(directory.count, &out); u32(start, &out); u16(0, &out)
        return out
    }

    /// An ePub 3 whose spine lists `spine` (manifest ids of `chapters`, by index), in order.
    static func epub(chapters: [String], spine: [Int], deflated: Bool = true) throws -> [UInt8] {
        var zip = ZIPWriter()
        zip.add("mimetype", "application/epub+zip")
        zip.add(
            "META-INF/container.xml",
            #"<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#
        )
        let items = chapters.indices.map { #"<item id="c\#($0)" href="c\#($0).xhtml" media-type="application/xhtml+xml"/>"# }.joined()
        let refs = spine.map { #"<itemref idref="c\#($0)"/>"# }.joined()
        zip.add(
            "OEBPS/content.opf",
            #"<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Test</dc:title></metadata><manifest>\#(items)</manifest><spine>\#(refs)</spine></package>"#
        )
        for (index, chapter) in chapters.enumerated() { zip.add("OEBPS/c\(index).xhtml", chapter, deflated: deflated) }
        return try zip.archive()
    }
}
