import Foundation
import Hummingbird
import HummingbirdTesting
import JukePlatform
import Testing

@testable import JukeServer

/// The service worker looks up on the device only what the platform and the apps declare
/// they may keep there: the list comes from the app list, not from the worker's script.
@Suite(.timeLimit(.minutes(5))) struct DeviceKeptPathsTests {
    /// The shell `/sw.js` starts the worker with, as JSON.
    static func shell(_ client: any TestClientProtocol) async throws -> [String: Any] {
        let worker = String(buffer: try await client.execute(uri: "/sw.js", method: .get).body)
        let json = try #require(worker.range(of: "start(").map { worker[$0.upperBound...] }?.split(separator: ")").first)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func theWorkerKeepsWhatThePlatformAndTheAppsDeclare() async throws {
        try await TestApp.run(.sqlite) { app, client in
            let device = try #require(try await Self.shell(client)["device"] as? [String])
            let declared = app.services.apps.flatMap(\.deviceKeptPaths)
            #expect(declared.contains("/api/v1/dual/books/{id}/chapters/{index}/audio"), "Dual Player declares its saved items")
            #expect(device == ["/api/v1/catalog/tracks/{id}/audio", "/api/v1/catalog/tracks/{id}/artwork"] + declared)
            // Only Dual Player saves on the device; the other apps declare nothing.
            #expect(declared.allSatisfy { $0.hasPrefix("/api/v1/dual/") })
            // The worker's script names no app's address: the shell brings them.
            let script = String(buffer: try await client.execute(uri: "/static/js/service-worker.js", method: .get).body)
            #expect(!script.contains("/api/v1/dual"))
        }
    }
}
