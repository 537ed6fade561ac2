import Foundation
import MediaStorage
import Testing

/// The signer against AWS's published vectors (SigV4Vectors/README.md): each step checked on
/// its own, so a failure names the step that is wrong.
@Suite(.timeLimit(.minutes(1)))
struct SignatureV4Tests {
    static let vectorsFolder = Bundle.module.resourceURL?.appendingPathComponent("SigV4Vectors")

    /// Every vector folder, as "suite/case".
    static let cases: [String] = {
        guard let folder = vectorsFolder else { return [] }
        var found: [String] = []
        for suite in ["aws-c-auth", "s3-docs"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(suite).path)) ?? []
            found += names.sorted().map { "\(suite)/\($0)" }
        }
        return found
    }()

    struct Context: Decodable {
        struct Credentials: Decodable {
            let access_key_id: String
            let secret_access_key: String
            let token: String?
        }
        let credentials: Credentials
        let expiration_in_seconds: Int
        let region: String
        let service: String
        let sign_body: Bool
        let timestamp: String
        let query_payload: String?
    }

    struct Vector {
        let context: Context
        let request: SignatureV4.Request
        let body: Data
        let folder: URL

        func file(_ name: String) -> String? {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }

        var signer: SignatureV4 {
            SignatureV4(
                credentials: S3Credentials(
                    accessKeyID: context.credentials.access_key_id, secretAccessKey: context.credentials.secret_access_key,
                    sessionToken: context.credentials.token),
                region: context.region, service: context.service)
        }

        var date: Date {
            get throws { try #require(ISO8601DateFormatter().date(from: context.timestamp)) }
        }
    }

    /// request.txt: a request line, headers (a line starting with white space continues the
    /// header before it), a blank line and the body. The path and query are decoded, as the
    /// signer takes them.
    static func vector(_ name: String) throws -> Vector {
        let folder = try #require(vectorsFolder).appendingPathComponent(name)
        let contextData = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent("context.json").path))
        let context = try JSONDecoder().decode(Context.self, from: contextData)
        let raw = String(decoding: try #require(FileManager.default.contents(atPath: folder.appendingPathComponent("request.txt").path)), as: UTF8.self)
        var lines = raw.components(separatedBy: "\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        let method = String(requestLine[0])
        let target = requestLine.dropFirst().dropLast().joined(separator: " ")
        var headers: [(name: String, value: String)] = []
        var bodyLines: [String]?
        for line in lines {
            if bodyLines != nil {
                bodyLines?.append(line)
            } else if line.isEmpty {
                bodyLines = []
            } else if line.first == " " || line.first == "\t", let last = headers.popLast() {
                headers.append((last.name, last.value + "\n" + line))
            } else if let colon = line.firstIndex(of: ":") {
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
            }
        }
        let body = Data((bodyLines ?? []).joined(separator: "\n").utf8)
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        var query: [(name: String, value: String)] = []
        if parts.count > 1 {
            for item in parts[1].split(separator: "&") {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(pair[0]).removingPercentEncoding ?? String(pair[0])
                let value = pair.count > 1 ? (String(pair[1]).removingPercentEncoding ?? String(pair[1])) : ""
                query.append((name, value))
            }
        }
        return Vector(
            context: context, request: SignatureV4.Request(method: method, path: path, query: query, headers: headers), body: body, folder: folder)
    }

    @Test func theVectorsAreThere() {
        // Twenty of aws-c-auth's and S3's five documented examples.
        #expect(Self.cases.count >= 25, "\(Self.cases)")
        for wanted in [
            "aws-c-auth/get-vanilla-query-order-key-case", "aws-c-auth/get-unreserved", "aws-c-auth/get-utf8", "aws-c-auth/get-header-value-trim",
            "s3-docs/get-object-range", "s3-docs/put-object", "s3-docs/list-objects", "s3-docs/presigned-get-object",
        ] {
            #expect(Self.cases.contains(wanted), "\(wanted)")
        }
    }

    @Test(arguments: cases)
    func signsByHeadersAsAWSDoes(_ name: String) throws {
        let vector = try Self.vector(name)
        guard let expectedCanonical = vector.file("header-canonical-request.txt") else { return }
        let signed = vector.signer.signHeaders(
            vector.request, payloadHash: SignatureV4.payloadHash(vector.body), date: try vector.date, contentSHA256Header: vector.context.sign_body)
        #expect(signed.canonicalRequest == expectedCanonical, "canonical request of \(name)")
        #expect(signed.stringToSign == vector.file("header-string-to-sign.txt"), "string to sign of \(name)")
        #expect(signed.signature == vector.file("header-signature.txt")?.trimmingCharacters(in: .whitespacesAndNewlines), "signature of \(name)")
        let authorization = signed.headers.first { $0.name == "Authorization" }?.value ?? ""
        #expect(authorization.hasSuffix("Signature=\(signed.signature)"))
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=\(vector.context.credentials.access_key_id)/"))
        if let signedRequest = vector.file("header-signed-request.txt") {
            // aws-c-auth prints the Authorization header it expects.
            #expect(signedRequest.contains(authorization), "Authorization header of \(name)")
        }
    }

    @Test(arguments: cases)
    func signsIntoTheQueryAsAWSDoes(_ name: String) throws {
        let vector = try Self.vector(name)
        guard let expectedCanonical = vector.file("query-canonical-request.txt") else { return }
        let signed = vector.signer.presign(
            vector.request, expires: vector.context.expiration_in_seconds, date: try vector.date,
            payloadHash: vector.context.query_payload ?? SignatureV4.payloadHash(vector.body))
        #expect(signed.canonicalRequest == expectedCanonical, "canonical request of \(name)")
        #expect(signed.stringToSign == vector.file("query-string-to-sign.txt"), "string to sign of \(name)")
        #expect(signed.signature == vector.file("query-signature.txt")?.trimmingCharacters(in: .whitespacesAndNewlines), "signature of \(name)")
        #expect(signed.query.last?.name == "X-Amz-Signature")
        #expect(signed.query.last?.value == signed.signature)
    }

    @Test func thePresignedURLIsTheOneAWSPrints() throws {
        let vector = try Self.vector("s3-docs/presigned-get-object")
        let signed = vector.signer.presign(vector.request, expires: 86_400, date: try vector.date)
        #expect(
            signed.encodedQuery
                == "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
                + "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    @Test func aWrongSecretOrDayGivesAnotherSignature() throws {
        let vector = try Self.vector("s3-docs/get-object-range")
        let right = vector.signer.signHeaders(vector.request, payloadHash: SignatureV4.emptyPayloadHash, date: try vector.date)
        let wrongSecret = SignatureV4(credentials: S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "x"), region: "us-east-1")
            .signHeaders(vector.request, payloadHash: SignatureV4.emptyPayloadHash, date: try vector.date)
        let nextDay = vector.signer.signHeaders(vector.request, payloadHash: SignatureV4.emptyPayloadHash, date: try vector.date + 86_400)
        #expect(right.canonicalRequest == wrongSecret.canonicalRequest)
        #expect(right.signature != wrongSecret.signature)
        #expect(right.signature != nextDay.signature)
    }

    @Test func keysAreEncodedOnceWithTheirSlashesKept() {
        #expect(SignatureV4.encode("dual/books/a b+c$ü~.mp3", keepSlash: true) == "dual/books/a%20b%2Bc%24%C3%BC~.mp3")
        #expect(SignatureV4.encode("a/b%20", keepSlash: false) == "a%2Fb%2520")
    }

    @Test func timestampsAreUTCInAWSBasicFormat() {
        #expect(SignatureV4.timestamp(Date(timeIntervalSince1970: 0)) == "19700101T000000Z")
        #expect(SignatureV4.timestamp(Date(timeIntervalSince1970: 1_369_353_600)) == "20130524T000000Z")
        #expect(SignatureV4.timestamp(Date(timeIntervalSince1970: 951_868_799.9)) == "20000229T235959Z")
        #expect(SignatureV4.timestamp(Date(timeIntervalSince1970: 4_102_444_800)) == "21000101T000000Z")
    }

    @Test func theSecretIsNeverSaid() {
        let credentials = S3Credentials(accessKeyID: "jukekey", secretAccessKey: "sup3r-s3cret", sessionToken: "t0ken-value")
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in [credentials.description, credentials.debugDescription, "\(credentials)", String(reflecting: credentials), dumped] {
            #expect(!text.contains("sup3r-s3cret"), "\(text)")
            #expect(!text.contains("t0ken-value"), "\(text)")
            #expect(text.contains("jukekey"))
        }
    }
}
