import Hummingbird
import ServiceLifecycle

/// Server-sent event streams end when the server shuts down. A stream never ends by itself,
/// and Hummingbird's graceful shutdown waits for every response in flight: one open page kept
/// `juke serve` running after SIGTERM until its client left. The stream's writer is cancelled
/// (its loop ends, the response finishes and the connection closes; the page reconnects to
/// the next server), while ordinary requests in flight still finish.
struct EventStreamShutdownMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard let type = response.headers[.contentType], type.hasPrefix("text/event-stream") else { return response }
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            let handed = HandedWriter(writer: writer)
            try await cancelWhenGracefulShutdown { try await body.write(handed.writer) }
        }
        return response
    }
}

/// The response's writer handed to the task that writes the stream: only that task uses it,
/// while the handler waits for it.
private struct HandedWriter: @unchecked Sendable {
    let writer: any ResponseBodyWriter
}
