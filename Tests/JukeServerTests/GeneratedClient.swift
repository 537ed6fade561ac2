import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import OpenAPIRuntime
import TuneTriviaAPI

/// The client swift-openapi-generator writes from openapi.yaml, sending through Hummingbird's
/// test client: the endpoint tests speak the contract's types, so a route that drifts from
/// the spec fails to decode here.
struct TestClientTransport: ClientTransport {
    let client: any TestClientProtocol
    let token: String?

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var headers = request.headerFields
        if let token { headers[.authorization] = "Bearer \(token)" }
        var buffer: ByteBuffer?
        if let body { buffer = ByteBuffer(bytes: try await [UInt8](collecting: body, upTo: 1 << 24)) }
        let response = try await client.execute(uri: request.path ?? "/", method: request.method, headers: headers, body: buffer)
        return (HTTPResponse(status: response.status, headerFields: response.headers), HTTPBody([UInt8](buffer: response.body)))
    }
}

extension TestClientProtocol {
    /// The generated API client, signed in with `token`.
    func api(_ token: String?) throws -> Client {
        guard let server = URL(string: "http://juke.test") else { throw URLError(.badURL) }
        return Client(serverURL: server, transport: TestClientTransport(client: self, token: token))
    }
}
