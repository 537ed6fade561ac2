import Hummingbird
import Prometheus

/// Request counts and latencies per route in Prometheus format, into a registry the
/// application owns (no global state, so tests can build as many applications as they like).
/// A request slower than `slowRequest` to its response's head is also logged, with its route:
/// a server that stalls now and then says where, without a scraper watching.
struct PrometheusMiddleware<Context: RequestContext>: RouterMiddleware {
    let registry: PrometheusCollectorRegistry
    static var buckets: [Duration] {
        [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
        ]
    }

    static var slowRequest: Duration { .seconds(2) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let route = context.endpointPath ?? "unmatched"
        let labels = [("method", request.method.rawValue), ("route", route), ("status", String(response.status.code))]
        registry.makeCounter(name: "juke_http_requests_total", labels: labels).increment()
        let took = ContinuousClock.now - start
        registry.makeDurationHistogram(
            name: "juke_http_request_duration_seconds", labels: [("method", request.method.rawValue), ("route", route)],
            buckets: Self.buckets
        ).record(took)
        if took > Self.slowRequest {
            context.logger.warning(
                "a slow request",
                metadata: [
                    "method": "\(request.method.rawValue)", "route": "\(route)", "status": "\(response.status.code)",
                    "milliseconds": "\(took.components.seconds * 1000 + took.components.attoseconds / 1_000_000_000_000_000)",
                ])
        }
        return response
    }
}
