import Foundation

/// The contract's source text, served at /openapi.yaml. The types, server stubs and client
/// in this module are generated from the same file at build time.
public enum OpenAPISpec {
    public static func yaml() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }
}
