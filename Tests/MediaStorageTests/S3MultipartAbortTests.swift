import Foundation
import Testing

@testable import MediaStorage

/// A multipart upload that fails part-way leaves nothing: no object, and no upload S3 keeps
/// parts for. The failure is made certain: the file is shorter than the length given, so
/// the third part's body ends early.
@Suite(.enabled(if: S3TestServer.configured != nil), .timeLimit(.minutes(5)))
struct S3MultipartAbortTests {
    @Test func aFailedPartAbortsTheUpload() async throws {
        let server = try #require(S3TestServer.configured)
        let configuration = S3Configuration(
            location: S3Location(bucket: server.bucket, prefix: "juke-tests/\(UUID().uuidString.lowercased())"), endpoint: server.endpoint,
            region: "us-east-1", credentials: S3Credentials(accessKeyID: server.accessKey, secretAccessKey: server.secret), multipartThreshold: 5 << 20,
            partSize: 5 << 20, callTimeout: .seconds(60), transferTimeout: .seconds(120))
        let store = S3Bucket(configuration: configuration)
        let path = NSTemporaryDirectory() + "juke-s3-short-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: path, contents: Data(count: (11 << 20)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let key = try #require(StorageKey("dual/books/short.m4b"))
        await #expect(throws: (any Error).self) {
            try await store.client.putMultipart(file: path, length: 12 << 20, as: key, contentType: "audio/mp4")
        }
        #expect(try await store.info(key) == nil)
        #expect(try await store.client.pendingUploads(namePrefix: store.client.objectName(key)).isEmpty)
        try await store.shutdown()
    }

    /// An upload a store went away in the middle of (begun, never finished nor aborted):
    /// left alone while it may be another server's under way, aborted once old enough.
    @Test func anAbandonedUploadIsAbortedOnceOldEnough() async throws {
        let server = try #require(S3TestServer.configured)
        let prefix = "juke-tests/\(UUID().uuidString.lowercased())"
        let configuration = S3Configuration(
            location: S3Location(bucket: server.bucket, prefix: prefix), endpoint: server.endpoint, region: "us-east-1",
            credentials: S3Credentials(accessKeyID: server.accessKey, secretAccessKey: server.secret), callTimeout: .seconds(60))
        let store = S3Bucket(configuration: configuration)
        let key = try #require(StorageKey("dual/books/left.m4b"))
        _ = try await store.client.createMultipartUpload(store.client.objectName(key), contentType: "audio/mp4")
        #expect(try await store.client.pendingUploads(namePrefix: prefix + "/").count == 1)
        #expect(try await store.abortAbandonedUploads(olderThan: .seconds(3600)) == 0, "an hour-young upload may be another server's")
        #expect(try await store.client.pendingUploads(namePrefix: prefix + "/").count == 1)
        // Once older than the age asked (the bucket's own clock says when it began; a store's
        // clock cannot be moved on here, since S3 refuses requests signed far from its time).
        try await Task.sleep(for: .milliseconds(2100))
        #expect(try await store.abortAbandonedUploads(olderThan: .seconds(1)) == 1)
        #expect(try await store.client.pendingUploads(namePrefix: prefix + "/").isEmpty)
        try await store.shutdown()
    }
}
