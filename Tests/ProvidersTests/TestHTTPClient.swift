import Providers

extension HTTPClient {
    /// The tests' one outbound client, as the server has one (never shut down: it lives as
    /// long as the test process).
    static let tests = HTTPClient()
}
