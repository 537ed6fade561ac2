import AsyncHTTPClient
import Foundation
import JukeCore
import NIOCore
import NIOHTTP1
import Providers

/// S3's REST calls, signed, through the server's one outbound client (`Providers.HTTPClient`,
/// AsyncHTTPClient underneath): the one place that builds addresses, signs and turns S3's
/// answers into `MediaStoreError`s. Every call has a deadline for its answer (the
/// configuration's), every body read has an idle limit (`transferTimeout`, per piece), and a
/// failure says what was asked of whom.
struct S3Client: Sendable {
    let configuration: S3Configuration
    /// The server's client (shut down by its owner), or one of the bucket's own.
    let http: Providers.HTTPClient
    /// Whether `shutdown()` closes `http`: only a client the bucket made for itself.
    let ownsClient: Bool
    let signer: SignatureV4
    let clock: WallClock

    /// The shared client's pool: no redirects (a redirected request would carry a signature
    /// for another address), no read timeout (each call brings its deadline, each body read
    /// its idle limit).
    var pool: AsyncHTTPClient.HTTPClient { http.pooled }

    init(configuration: S3Configuration, http: Providers.HTTPClient?, clock: WallClock) {
        self.configuration = configuration
        self.clock = clock
        self.http = http ?? Providers.HTTPClient()
        ownsClient = http == nil
        signer = SignatureV4(credentials: configuration.credentials, region: configuration.region)
    }

    func shutdown() async throws {
        if ownsClient { try await http.shutdown() }
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    // MARK: Addresses

    /// The object's name in the bucket: the key under the configured prefix.
    func objectName(_ key: StorageKey) -> String {
        configuration.location.prefix.map { $0 + "/" + key.rawValue } ?? key.rawValue
    }

    /// Scheme and authority, the Host header, and the (unencoded) path of an object, or of
    /// the bucket when `name` is nil. Path-style at a custom endpoint; at AWS virtual-hosted,
    /// but path-style for a bucket with dots, which AWS's certificate does not cover.
    func address(_ name: String?) -> (base: String, host: String, path: String) {
        let bucket = configuration.location.bucket
        if let endpoint = configuration.endpoint {
            let scheme = endpoint.scheme ?? "http"
            let host = (endpoint.host ?? "localhost") + (endpoint.port.map { ":\($0)" } ?? "")
            return ("\(scheme)://\(host)", host, "/" + bucket + (name.map { "/" + $0 } ?? ""))
        }
        if bucket.contains(".") {
            let host = "s3.\(configuration.region).amazonaws.com"
            return ("https://\(host)", host, "/" + bucket + (name.map { "/" + $0 } ?? ""))
        }
        let host = "\(bucket).s3.\(configuration.region).amazonaws.com"
        return ("https://\(host)", host, "/" + (name ?? ""))
    }

    /// A presigned GET of the object, valid for `lifetime` from now (1 second to S3's
    /// limit, 7 days).
    func presignedGet(_ key: StorageKey, lifetime: Duration) -> String {
        let (base, host, path) = address(objectName(key))
        let seconds = Int(max(1, min(lifetime.components.seconds, 604_800)))
        let signed = signer.presign(SignatureV4.Request(method: "GET", path: path, headers: [("Host", host)]), expires: seconds, date: clock.now())
        return base + SignatureV4.encodePath(path) + "?" + signed.encodedQuery
    }

    // MARK: Calls

    enum Body {
        case none
        case bytes(ByteBuffer)
        /// `length` bytes of the file from `offset`, read as they are sent.
        case file(path: String, offset: Int64, length: Int64)
    }

    /// Sends one signed request and returns the answer, whatever its status. The payload is
    /// signed when it is in memory; a file is sent UNSIGNED-PAYLOAD (S3 allows it, and it
    /// spares reading the file twice).
    func send(
        _ method: HTTPMethod, _ name: String?, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = [],
        body: Body = .none, timeout: Duration
    ) async throws -> HTTPClientResponse {
        let (base, host, path) = address(name)
        let payloadHash: String
        switch body {
        case .none: payloadHash = SignatureV4.emptyPayloadHash
        case .bytes(let buffer): payloadHash = SignatureV4.payloadHash(Data(buffer.readableBytesView))
        case .file: payloadHash = SignatureV4.unsignedPayload
        }
        let signed = signer.signHeaders(
            SignatureV4.Request(method: method.rawValue, path: path, query: query, headers: [("Host", host)] + headers), payloadHash: payloadHash,
            date: clock.now())
        var request = HTTPClientRequest(url: base + SignatureV4.encodePath(path) + (query.isEmpty ? "" : "?" + signed.encodedQuery))
        request.method = method
        for header in signed.headers { request.headers.add(name: header.name, value: header.value) }
        switch body {
        case .none: break
        case .bytes(let buffer): request.body = .bytes(buffer)
        case .file(let file, let offset, let length):
            guard let handle = FileHandle(forReadingAtPath: file) else { throw MediaStoreError.unavailable("cannot read \(file)") }
            do {
                if offset > 0 { try handle.seek(toOffset: UInt64(offset)) }
            } catch {
                try? handle.close()
                throw MediaStoreError.unavailable("cannot read \(file): \(error.localizedDescription)")
            }
            let reader = ChunkReader(handle: handle, remaining: length)
            request.body = .stream(AsyncThrowingStream<ByteBuffer, any Error>(unfolding: { try reader.next() }), length: .known(length))
        }
        do {
            return try await pool.execute(request, timeout: Self.timeAmount(timeout))
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            throw MediaStoreError.unavailable("\(method.rawValue) \(describe(name)) at \(base): no answer within \(timeout)")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw MediaStoreError.unavailable("\(method.rawValue) \(describe(name)) at \(base) failed: \(error)")
        }
    }

    func describe(_ name: String?) -> String {
        "s3://\(configuration.location.bucket)" + (name.map { "/" + $0 } ?? "")
    }

    /// Throws for an answer that is not 2xx: `notFound` for a missing key (S3's NoSuchKey, or
    /// a bodiless 404 of HEAD), else `unavailable` with S3's code and message.
    func check(_ response: HTTPClientResponse, _ method: HTTPMethod, _ name: String?, key: StorageKey?) async throws {
        guard !(200..<300).contains(response.status.code) else { return }
        let body = try? await ResponseBodyPump(response.body, idleLimit: configuration.transferTimeout).collect(upTo: 64 * 1024)
        let document = body.flatMap { S3ErrorDocument($0) }
        if response.status == .notFound, let key, document == nil || document?.code == "NoSuchKey" {
            throw MediaStoreError.notFound(key)
        }
        let why = document?.summary ?? "HTTP \(response.status.code) \(response.status.reasonPhrase)"
        throw MediaStoreError.unavailable("\(method.rawValue) \(describe(name)) refused: \(why)")
    }

    /// The whole body of a small answer (a list page, a multipart reply).
    func smallBody(_ response: HTTPClientResponse) async throws -> Data {
        do {
            return try await ResponseBodyPump(response.body, idleLimit: configuration.transferTimeout).collect(upTo: 16 << 20)
        } catch {
            throw MediaStoreError.unavailable("cannot read S3's answer: \(error)")
        }
    }

    /// Time allowed for sending `bytes`: the transfer timeout plus a second per MiB.
    func uploadTimeout(_ bytes: Int64) -> Duration {
        configuration.transferTimeout + .seconds(bytes >> 20)
    }
}
