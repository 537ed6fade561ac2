/// A PDF written in a test: numbered objects (text, or a dictionary with stream bytes), a
/// trailer naming object 1 the catalog. No cross-reference table: Juke finds objects by reading
/// the file, as it does for damaged ones.
struct PDFWriter {
    var objects: [(number: Int, body: [UInt8])] = []

    mutating func add(_ number: Int, _ body: String) { objects.append((number, Array(body.utf8))) }

    mutating func add(_ number: Int, stream bytes: [UInt8], dictionary: String = "") {
        objects.append((number, Array("<< /Length \(bytes.count) \(dictionary) >>\nstream\n".utf8) + bytes + Array("\nendstream".utf8)))
    }

    var bytes: [UInt8] {
        var out = Array("%PDF-1.7\n".utf8)
        for object in objects { out += Array("\(object.number) 0 obj\n".utf8) + object.body + Array("\nendobj\n".utf8) }
        return out + Array("trailer\n<< /Root 1 0 R >>\n%%EOF\n".utf8)
    }

    /// A catalog (1), its page tree (2) and pages 100, 101, … each drawing `contents` with the
    /// font F1 (object 3, Helvetica unless given) and any other `resources`.
    static func pages(_ contents: [String], font: String = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", resources: String = "") -> PDFWriter {
        var pdf = PDFWriter()
        pdf.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        let kids = contents.indices.map { "\(100 + $0) 0 R" }.joined(separator: " ")
        pdf.add(2, "<< /Type /Pages /Kids [\(kids)] /Count \(contents.count) >>")
        pdf.add(3, font)
        for (index, content) in contents.enumerated() {
            pdf.add(100 + index, "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> \(resources) >> /Contents \(content) >>")
        }
        return pdf
    }
}
