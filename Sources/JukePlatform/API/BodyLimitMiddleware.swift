import Hummingbird
import NIOCore

/// Refuses bodies over the limit with 413 before a handler decodes them. Bodies with a
/// Content-Length are judged by it; chunked ones are collected up to the limit.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let limit: Int
    /// Upload routes (`JukeApp.streamedUploadPaths`): judged by `uploadLimit` on their
    /// declared length only; the route counts the bytes as they stream to disk.
    var uploadPaths: Set<String> = []
    var uploadLimit: Int = 0

    /// Routes (by path prefix) that take a multiple of the limit (`JukeApp.largerBodyPaths`).
    var larger: [String: Int] = [:]

    func limit(for path: String, default limit: Int) -> Int {
        larger.filter { path.hasPrefix($0.key) }.max { $0.key.count < $1.key.count }.map { limit * max(1, $0.value) } ?? limit
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard [.post, .put, .patch].contains(request.method) else { return try await next(request, context) }
        if uploadPaths.contains(request.uri.path) {
            if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > uploadLimit { return APIError.tooLarge(uploadLimit).response() }
            return try await next(request, context)
        }
        let limit = limit(for: request.uri.path, default: self.limit)
        if let length = request.headers[.contentLength].flatMap({ Int($0) }) {
            if length > limit { return APIError.tooLarge(limit).response() }
            return try await next(request, context)
        }
        var request = request
        do {
            let buffer = try await request.collectBody(upTo: limit)
            request.body = .init(buffer: buffer)
        } catch is NIOTooManyBytesError {
            // A chunked body past the limit (this used to fall through to a 500).
            return APIError.tooLarge(limit).response()
        }
        return try await next(request, context)
    }
}
