/// A catalog's failure as the app met it: which catalog (its name, for the person told
/// about it) and what went wrong. The platform says it as HTTP (busy 503, otherwise 502).
public struct CatalogFailure: Error, Sendable, Equatable {
    public let provider: String
    public let error: CatalogError

    public init(provider: String, error: CatalogError) {
        self.provider = provider
        self.error = error
    }
}
