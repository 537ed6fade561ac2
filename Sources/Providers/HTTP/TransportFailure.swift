public import Foundation

/// A provider's error that a failed request becomes. Each provider's error enum has a
/// `timeout` case and an `unreachable(String)` case (enum cases fulfil these requirements),
/// so the one mapping from `TransportError` lives here, not in each provider.
public protocol TransportFailure: Error {
    static var timeout: Self { get }
    static func unreachable(_ why: String) -> Self
}

extension TransportFailure {
    /// The provider's own error for a request that got no answer.
    public init(_ transport: TransportError) {
        switch transport {
        case .timeout: self = .timeout
        case .unreachable(let why): self = .unreachable(why)
        case .tooLarge(let limit): self = .unreachable("the answer is larger than \(limit) bytes")
        }
    }
}

extension HTTPClient {
    /// `send(_:timeout:)`, failing with the calling provider's own error.
    public func send<Failure: TransportFailure>(
        _ request: OutboundRequest, timeout: TimeInterval, limit: Int = defaultLimit, failingAs _: Failure.Type
    ) async throws(Failure) -> HTTPReply {
        do throws(TransportError) {
            return try await send(request, timeout: timeout, limit: limit)
        } catch {
            throw Failure(error)
        }
    }
}
