import MediaStorage

/// The media store's failures as HTTP: a file no longer stored is the route's "file
/// missing", and a store that cannot be reached (a bucket down) is a 503 that says so
/// rather than a 500, since trying again later is the right thing to do.
extension MediaStoreError: APIErrorConvertible {
    public var apiError: APIError {
        switch self {
        case .notFound, .invalidKey:
            return APIError(status: .notFound, code: "file_missing", message: "The file is no longer stored.")
        case .unavailable:
            return APIError(
                status: .serviceUnavailable, code: "storage_unavailable",
                message: "The server's file storage cannot be reached just now; try again shortly.", retryAfter: 30)
        }
    }
}
