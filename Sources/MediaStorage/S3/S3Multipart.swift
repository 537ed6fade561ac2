import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A large file stored in parts (CreateMultipartUpload, UploadPart, CompleteMultipartUpload),
/// so no single request carries a whole book. On any failure, cancellation included, the
/// upload is aborted: S3 keeps no parts, and nothing appears under the key.
extension S3Client {
    func putMultipart(file: String, length: Int64, as key: StorageKey, contentType: String) async throws {
        let name = objectName(key)
        let uploadID = try await createMultipartUpload(name, contentType: contentType)
        do {
            var parts: [(number: Int, etag: String)] = []
            var offset: Int64 = 0
            var number = 1
            // One part at a time: the server has two cores and the bucket's bandwidth is the
            // limit, not the requests in flight.
            while offset < length {
                try Task.checkCancellation()
                let size = min(configuration.partSize, length - offset)
                let query: [(name: String, value: String)] = [("partNumber", String(number)), ("uploadId", uploadID)]
                let response = try await send(
                    .PUT, name, query: query, body: .file(path: file, offset: offset, length: size), timeout: uploadTimeout(size))
                try await check(response, .PUT, name, key: nil)
                guard let etag = response.headers.first(name: "ETag") else {
                    throw MediaStoreError.unavailable("PUT \(describe(name)) part \(number): no ETag in S3's answer")
                }
                parts.append((number, etag))
                offset += size
                number += 1
            }
            try await completeMultipartUpload(name, uploadID: uploadID, parts: parts)
        } catch {
            // In a task of its own: a cancelled upload must still be aborted, and a call
            // made from the cancelled task would be cancelled before it is sent.
            let client = self
            await Task { await client.abortMultipartUpload(name, uploadID: uploadID) }.value
            throw error
        }
    }

    func createMultipartUpload(_ name: String, contentType: String) async throws -> String {
        let response = try await send(.POST, name, query: [("uploads", "")], headers: [("Content-Type", contentType)], timeout: configuration.callTimeout)
        try await check(response, .POST, name, key: nil)
        guard let root = S3XMLElement.parse(try await smallBody(response)), let uploadID = root.value("UploadId"), !uploadID.isEmpty else {
            throw MediaStoreError.unavailable("POST \(describe(name))?uploads: no UploadId in S3's answer")
        }
        return uploadID
    }

    func completeMultipartUpload(_ name: String, uploadID: String, parts: [(number: Int, etag: String)]) async throws {
        var xml = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        for part in parts {
            xml += "<Part><PartNumber>\(part.number)</PartNumber><ETag>\(Self.escapeXML(part.etag))</ETag></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        let response = try await send(
            .POST, name, query: [("uploadId", uploadID)], headers: [("Content-Type", "application/xml")], body: .bytes(ByteBuffer(string: xml)),
            timeout: configuration.callTimeout + .seconds(Int64(parts.count)))
        try await check(response, .POST, name, key: nil)
        // S3 may answer 200 and still fail: the error is then the body.
        if let error = S3ErrorDocument(try await smallBody(response)) {
            throw MediaStoreError.unavailable("POST \(describe(name))?uploadId refused: \(error.summary)")
        }
    }

    /// Best effort: an abort that fails leaves parts that S3 never shows as an object (a
    /// bucket lifecycle rule removes them), and the upload's own error is the one to report.
    func abortMultipartUpload(_ name: String, uploadID: String) async {
        guard let response = try? await send(.DELETE, name, query: [("uploadId", uploadID)], timeout: configuration.callTimeout) else { return }
        _ = try? await ResponseBodyPump(response.body, idleLimit: configuration.transferTimeout).collect(upTo: 64 * 1024)
    }

    /// The upload ids of multipart uploads begun and neither completed nor aborted under
    /// `namePrefix` (ListMultipartUploads, first page): what a failed store must not leave.
    func pendingUploads(namePrefix: String) async throws -> [String] {
        try await pendingUploadsBegun(namePrefix: namePrefix).map(\.uploadID)
    }

    /// The same, with each upload's object name and when it began (an upload whose start
    /// S3 does not say is left out: nothing tells how old it is).
    func pendingUploadsBegun(namePrefix: String) async throws -> [(name: String, uploadID: String, began: Date)] {
        let response = try await send(.GET, nil, query: [("uploads", ""), ("prefix", namePrefix)], timeout: configuration.callTimeout)
        try await check(response, .GET, nil, key: nil)
        guard let root = S3XMLElement.parse(try await smallBody(response)) else {
            throw MediaStoreError.unavailable("GET \(describe(nil))?uploads: S3's list is not the XML it should be")
        }
        return root.children("Upload").compactMap { upload in
            guard let name = upload.value("Key"), let id = upload.value("UploadId"), let began = upload.value("Initiated").flatMap(S3Dates.iso8601)
            else { return nil }
            return (name, id, began)
        }
    }

    /// Aborts the uploads under `namePrefix` begun before `cutoff`: what a store that went
    /// away between two parts (and so could not be told to abort) left. Returns how many.
    func abortAbandonedUploads(namePrefix: String, begunBefore cutoff: Date) async throws -> Int {
        var aborted = 0
        for upload in try await pendingUploadsBegun(namePrefix: namePrefix) where upload.began < cutoff {
            await abortMultipartUpload(upload.name, uploadID: upload.uploadID)
            aborted += 1
        }
        return aborted
    }

    static func escapeXML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
