public import Foundation

/// How Juke reaches its bucket. Its description names the bucket, endpoint, region and
/// access key id, never the secret (`S3Credentials`).
public struct S3Configuration: Sendable, CustomStringConvertible {
    public var location: S3Location
    /// An S3-compatible server's base URL ("http://127.0.0.1:8333"), addressed path-style
    /// (`endpoint/bucket/key`); nil for AWS itself (`https://bucket.s3.REGION.amazonaws.com/key`).
    public var endpoint: URL?
    public var region: String
    public var credentials: S3Credentials
    /// Files larger than this are uploaded in parts (S3 takes at most 5 GiB in one PUT, and
    /// a failed part is cheaper to lose than a whole book).
    public var multipartThreshold: Int64
    /// The size of each part but the last; S3 wants at least 5 MiB.
    public var partSize: Int64
    /// Keys asked for per ListObjectsV2 page (S3's most is 1000).
    public var listPageSize: Int
    /// How long a call without a body (HEAD, DELETE, a list page, the multipart calls) may
    /// take, and how long a connection may take to open.
    public var callTimeout: Duration
    /// An upload may take this long plus a second per MiB (a floor of 1 MiB/s); a download's
    /// body may stand still this long between two pieces.
    public var transferTimeout: Duration

    public init(
        location: S3Location, endpoint: URL?, region: String, credentials: S3Credentials, multipartThreshold: Int64 = 16 << 20,
        partSize: Int64 = 8 << 20, listPageSize: Int = 1000, callTimeout: Duration = .seconds(30), transferTimeout: Duration = .seconds(60)
    ) {
        self.location = location
        self.endpoint = endpoint
        self.region = region
        self.credentials = credentials
        self.multipartThreshold = multipartThreshold
        self.partSize = max(partSize, 5 << 20)
        self.listPageSize = max(1, min(listPageSize, 1000))
        self.callTimeout = callTimeout
        self.transferTimeout = transferTimeout
    }

    /// "s3://bucket/prefix at http://127.0.0.1:8333" (or "at AWS us-east-1").
    public var summary: String {
        "\(location) at " + (endpoint.map { $0.absoluteString } ?? "AWS \(region)")
    }

    public var description: String { "S3Configuration(\(summary), region: \(region), \(credentials))" }
}
