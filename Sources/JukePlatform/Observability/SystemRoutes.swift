import Hummingbird
import JukeAPI

/// /metrics (Prometheus text format) and /openapi.yaml (the contract itself).
struct SystemRoutes<Context: RequestContext> {
    let platform: Platform

    func register(on router: Router<Context>) {
        let registry = platform.metrics
        router.get("/metrics") { _, _ in
            var buffer: [UInt8] = []
            registry.emit(into: &buffer)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: buffer))
            )
        }
        router.get("/openapi.yaml") { _, _ in
            let data = try OpenAPISpec.yaml()
            return Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }
}
