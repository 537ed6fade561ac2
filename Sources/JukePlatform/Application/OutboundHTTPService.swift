import Providers
import ServiceLifecycle

/// The server's one outbound HTTP client (`Platform.http`), owned by the service group: it
/// runs until the group shuts down, then closes the client's pooled connections. Added first,
/// so that it stops last (shutdown goes in reverse order), after every service that calls out.
struct OutboundHTTPService: Service {
    let http: HTTPClient

    func run() async throws {
        try? await gracefulShutdown()
        try await http.shutdown()
    }
}
