import Hummingbird
import NIOCore
import ServiceLifecycle

/// A server-sent event stream never ends by itself, so it is ended from outside, when:
///
/// - the server shuts down: Hummingbird's graceful shutdown waits for every response in
///   flight, and one open page kept `juke serve` running after SIGTERM until its client left;
/// - its client goes: the stream's loop waits for the next change and would notice a closed
///   connection only when a write failed, a heartbeat later, while the app still counted the
///   page as there (a playing page gone, a player still online). `ConnectionGuard` closes the
///   connection when the client's side ends.
///
/// Either way the stream's writer is cancelled: its loop ends, the route's clean-up runs and
/// the response finishes. Ordinary requests in flight are left to finish.
struct EventStreamMiddleware: RouterMiddleware {
    typealias Context = JukeRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard let type = response.headers[.contentType], type.hasPrefix("text/event-stream") else { return response }
        let body = response.body
        let closed = context.channel.closeFuture
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            let handed = HandedWriter(writer: writer)
            try await cancelWhenGracefulShutdown {
                // Its own task, so that the connection's close can cancel it from the event loop;
                // awaited here, and cancelled with this one.
                let stream = Task { try await body.write(handed.writer) }
                closed.whenComplete { _ in stream.cancel() }
                try await withTaskCancellationHandler {
                    try await stream.value
                } onCancel: {
                    stream.cancel()
                }
            }
        }
        return response
    }
}

/// The response's writer handed to the task that writes the stream: only that task uses it,
/// while the handler waits for it.
private struct HandedWriter: @unchecked Sendable {
    let writer: any ResponseBodyWriter
}
