import ContractSupport
import JukeAPI
import JukeCore
import Testing

@testable import JukePlatform

/// A refusal becomes the error response the contract declares for the operation, written by
/// the generated code; a status the contract does not declare is caught as drift.
@Suite(.timeLimit(.minutes(5))) struct ContractErrorsTests {
    @Test func aRefusalBecomesTheOperationsDeclaredResponse() async throws {
        let output: Operations.GetMe.Output = try await respond { throw APIError.unauthorized }
        guard case .unauthorized(let response) = output else {
            Issue.record("expected the declared 401, got \(output)")
            return
        }
        #expect(try response.body.json.error == "unauthorized")
        #expect(try response.body.json.message == APIError.unauthorized.message)
    }

    @Test func anEnginesRefusalIsMappedTheSameWay() async throws {
        let output: Operations.GetTrack.Output = try await respond { throw RuleRefusal.notFound("No such track.") }
        guard case .notFound(let response) = output else {
            Issue.record("expected the declared 404, got \(output)")
            return
        }
        #expect(try response.body.json.message == "No such track.")
        let invalid: Operations.ListTracks.Output = try await respond { throw RuleRefusal.invalid("year", "year must be between 0 and 9999.") }
        guard case .badRequest(let bad) = invalid else {
            Issue.record("expected the declared 400, got \(invalid)")
            return
        }
        #expect(try bad.body.json.field == "year")
    }

    @Test func tooManyAttemptsCarryRetryAfterInTheDeclaredHeader() async throws {
        let refusal = APIError(status: .tooManyRequests, code: "too_many_attempts", message: "Wait.", retryAfter: 60)
        let output: Operations.Login.Output = try await respond { throw refusal }
        guard case .tooManyRequests(let response) = output else {
            Issue.record("expected the declared 429, got \(output)")
            return
        }
        #expect(response.headers.retryAfter == 60)
    }

    @Test func aStatusTheContractDoesNotDeclareIsDrift() async {
        await #expect(throws: UndeclaredError.self) {
            let _: Operations.GetMe.Output = try await respond { throw APIError.conflict("Not a thing /me can say.") }
        }
    }

    @Test func otherFailuresAreNotRefusals() async {
        struct Broken: Error {}
        await #expect(throws: Broken.self) {
            let _: Operations.GetMe.Output = try await respond { throw Broken() }
        }
    }
}
