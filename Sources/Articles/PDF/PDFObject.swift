/// A PDF object (ISO 32000-1, 7.3), as far as reading text needs them.
indirect enum PDFObject: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case name(String)
    case string([UInt8])
    case array([PDFObject])
    case dictionary([String: PDFObject])
    case reference(Int)
    /// A stream: its dictionary and its raw (still encoded) bytes.
    case stream([String: PDFObject], [UInt8])

    var dictionary: [String: PDFObject]? {
        switch self {
        case .dictionary(let d), .stream(let d, _): d
        default: nil
        }
    }

    var array: [PDFObject]? { if case .array(let a) = self { a } else { nil } }
    var name: String? { if case .name(let n) = self { n } else { nil } }
    var number: Double? { if case .number(let n) = self { n } else { nil } }
    var int: Int? { number.flatMap { $0.isFinite && abs($0) < 1e12 ? Int($0) : nil } }
    var string: [UInt8]? { if case .string(let s) = self { s } else { nil } }
    var reference: Int? { if case .reference(let r) = self { r } else { nil } }

    subscript(key: String) -> PDFObject? { dictionary?[key] }
}
