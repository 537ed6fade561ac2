import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

@testable import MediaStorage

/// The bucket's idle limit on answers' bodies: the bucket shares the server's client, which
/// has no read timeout of its own, so a body that stops coming must fail here, not hang.
@Suite(.timeLimit(.minutes(5))) struct ResponseBodyPumpTests {
    @Test func aBodyThatStopsComingFailsAfterTheIdleLimit() async throws {
        let (pieces, source) = AsyncStream.makeStream(of: ByteBuffer.self)
        source.yield(ByteBuffer(bytes: [1, 2, 3]))
        // The second piece never comes, and the body never ends.
        let pump = ResponseBodyPump(.stream(pieces), idleLimit: .milliseconds(200))
        #expect(try await pump.next() == ByteBuffer(bytes: [1, 2, 3]))
        do {
            let piece = try await pump.next()
            Issue.record("a stalled body gave \(String(describing: piece))")
        } catch let error as MediaStoreError {
            guard case .unavailable = error else { throw error }
        }
        await #expect(throws: MediaStoreError.self, "a stalled body stays failed") { try await pump.next() }
        source.finish()
    }

    @Test func aBodyReadWholeEndsAndIsBounded() async throws {
        func body() -> HTTPClientResponse.Body {
            let (pieces, source) = AsyncStream.makeStream(of: ByteBuffer.self)
            source.yield(ByteBuffer(bytes: [1, 2]))
            source.yield(ByteBuffer(bytes: [3]))
            source.finish()
            return .stream(pieces)
        }
        #expect(try await ResponseBodyPump(body(), idleLimit: .seconds(30)).collect(upTo: 3) == Data([1, 2, 3]))
        await #expect(throws: MediaStoreError.self) { try await ResponseBodyPump(body(), idleLimit: .seconds(30)).collect(upTo: 2) }
    }
}
