import Hummingbird

/// Refuses text with the NUL character (U+0000) in a request's address or JSON body, with a
/// 400 that says so, before any handler sees it. No field of Juke's has a use for it, and
/// PostgreSQL cannot store it in text: let through, it became a 500 there (found by fuzzing
/// the contract on PostgreSQL) while SQLite stored it.
struct NulCharacterMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The body limit (`BodyLimitMiddleware` has refused anything larger already).
    let limit: Int

    static var refusal: APIError { .badRequest("Text may not contain the NUL character (U+0000).") }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.addressHasNul(request.uri.description) { return Self.refusal.response() }
        guard [.post, .put, .patch].contains(request.method), request.headers[.contentType]?.lowercased().contains("json") == true else {
            return try await next(request, context)
        }
        var request = request
        let body = try await request.collectBody(upTo: BodyLimitMiddleware<Context>.limit(for: request.uri.path, default: limit))
        request.body = .init(buffer: body)
        if Self.jsonHasNul(body.readableBytesView) { return Self.refusal.response() }
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
}
