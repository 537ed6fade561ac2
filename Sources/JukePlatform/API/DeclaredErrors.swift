import ContractSupport

/// Runs an operation's handler and answers a refusal it throws (an app's `RuleRefusal`, a
/// `CatalogFailure`, or the platform's `APIError`: `APIError.from`) with the error response the contract declares for that operation,
/// which the generated server then writes: the one place where refusals meet the contract.
/// A status the contract does not declare for the operation is drift between the code and
/// openapi.yaml; it is reported as `UndeclaredError` (logged, and answered with 500).
public func respond<Output: ContractErrorResponse>(_ handler: () async throws -> Output) async throws -> Output {
    do {
        return try await handler()
    } catch {
        guard let refusal = APIError.from(error) else { throw error }
        return try declared(refusal)
    }
}

func declared<Output: ContractErrorResponse>(_ error: APIError) throws -> Output {
    guard let output = Output(contractError: error.contractError) else { throw UndeclaredError(error: error, output: "\(Output.self)") }
    return output
}

/// A refusal whose status openapi.yaml does not list for the operation that gave it.
public struct UndeclaredError: Error, CustomStringConvertible {
    public let error: APIError
    /// The operation's output type, which names the operation.
    public let output: String

    public var description: String {
        "\(output) has no \(error.status.code) response in openapi.yaml, yet its handler refused with \(error.code): \(error.message)"
    }
}
