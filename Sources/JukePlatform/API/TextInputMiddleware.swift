import Foundation
import Hummingbird
import JukeCore

/// Refuses text that no field of Juke's accepts, with a 400 naming the field, before any
/// handler sees it: in one place, so that a field added tomorrow is covered too.
///
/// - NUL (U+0000) anywhere in the address or a JSON body. PostgreSQL cannot store it in
///   text: let through, it became a 500 there (found by fuzzing the contract) while SQLite
///   stored it.
/// - In every string of a JSON body's fields and every query value of the API, what `TextRules` refuses:
///   control characters and bidirectional overrides, and line breaks outside free text
///   (`multilineFields`). Passwords are exempt: they are never shown, and refusing them
///   could lock out an account made before.
struct TextInputMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The body limit (`BodyLimitMiddleware` has refused anything larger already).
    let limit: Int
    /// Routes that take a multiple of it (`JukeApp.largerBodyPaths`).
    var larger: [String: Int] = [:]
    /// The names the contract gives fields (`fieldNames(contract:)`): a key it does not
    /// know is ignored by the decoders, so what it holds is never stored and not judged.
    let fields: Set<String>

    /// Every key written in the contract: a superset of its fields' names, which is all
    /// the check needs.
    static func fieldNames(contract yaml: String) -> Set<String> {
        var names: Set<String> = []
        for line in yaml.split(separator: "\n") {
            // Quoted text is prose or a value, never a key: a description's "null: the
            // player's own" made `null` a text field, and a JSON body's unknown `null` key was
            // then refused (schemathesis found it).
            let text = Self.unquoted(line.drop { $0 == " " || $0 == "-" || $0 == "{" })
            var rest = Substring(text)
            // "name: value" and flow maps "{ name: value, other: value }": each key before a colon.
            while let colon = rest.firstIndex(of: ":") {
                let key = rest[..<colon].split(whereSeparator: { " ,{".contains($0) }).last.map(String.init) ?? ""
                if !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { names.insert(key) }
                rest = rest[rest.index(after: colon)...]
            }
        }
        return names
    }

    /// `line` with the text inside its double or single quotes taken out.
    static func unquoted(_ line: Substring) -> String {
        var out = ""
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// Fields holding text over several lines.
    static var multilineFields: Set<String> { ["description", "style_guide"] }
    static var exemptFields: Set<String> { ["password"] }

    static var nulRefusal: APIError { .badRequest("Text may not contain the NUL character (U+0000).") }

    static func refusal(_ field: String) -> APIError {
        .badRequest("\(field) may not contain control characters, line breaks or bidirectional overrides.", field: field)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.addressHasNul(request.uri.description) { return Self.nulRefusal.response() }
        // The API's query values; a page's (a sign-in's `next`) are the page's to judge, and
        // a page answers with a page, not a JSON error.
        if request.uri.path.hasPrefix("/api/") {
            for (name, value) in request.uri.queryParameters where !TextRules.isAllowed(value) {
                return Self.refusal(String(name)).response()
            }
        }
        guard [.post, .put, .patch].contains(request.method), request.headers[.contentType]?.lowercased().contains("json") == true else {
            return try await next(request, context)
        }
        var request = request
        let body = try await request.collectBody(upTo: BodyLimitMiddleware<Context>(limit: limit, larger: larger).limit(for: request.uri.path, default: limit))
        request.body = .init(buffer: body)
        if Self.jsonHasNul(body.readableBytesView) { return Self.nulRefusal.response() }
        if let field = Self.refusedField(fields: fields, inJSON: body.readableBytesView) { return Self.refusal(field).response() }
        return try await next(request, context)
    }

    /// "%00" anywhere in the address (the path or the query).
    static func addressHasNul(_ address: String) -> Bool {
        address.range(of: "%00", options: .caseInsensitive) != nil || address.utf8.contains(0)
    }

    /// A raw NUL byte, or the escape \u0000 (not an escaped backslash followed by "u0000").
    static func jsonHasNul(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            if byte == 0 { return true }
            guard byte == UInt8(ascii: "\\") else { continue }
            // An escape: the next byte says which; only \u takes four more.
            guard let kind = iterator.next() else { return false }
            guard kind == UInt8(ascii: "u") else { continue }
            var digits: [UInt8] = []
            while digits.count < 4, let digit = iterator.next() { digits.append(digit) }
            if digits == Array("0000".utf8) { return true }
            if digits.contains(0) { return true }
        }
        return false
    }

    /// The first field whose text `TextRules` refuses, or nil. Plain ASCII without escapes
    /// (nearly every request: an answer, a play) cannot hold one and is not parsed.
    static func refusedField(fields: Set<String>, inJSON bytes: some Collection<UInt8>) -> String? {
        guard bytes.contains(where: { $0 == UInt8(ascii: "\\") || $0 >= 0x7F }) else { return nil }
        // Not JSON: the handler answers that with its own 400.
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else { return nil }
        // Depth first without recursion: a deeply nested body cannot exhaust the stack.
        var pending: [(value: Any, field: String)] = [(root, "body")]
        while let (value, field) = pending.popLast() {
            switch value {
            case let text as String:
                if exemptFields.contains(field) || !fields.contains(field) { continue }
                if !TextRules.isAllowed(text, as: multilineFields.contains(field) ? .multiline : .line) { return field }
            case let object as [String: Any]:
                for (key, inner) in object where fields.contains(key) { pending.append((inner, key)) }
            case let array as [Any]:
                pending += array.map { ($0, field) }
            default:
                continue
            }
        }
        return nil
    }
}
