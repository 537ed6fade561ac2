import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The object calls Juke makes: HEAD, GET (with Range), PUT from a file, DELETE and
/// ListObjectsV2.
extension S3Client {
    /// The object's size and validators, or nil when nothing is stored under `key`.
    func head(_ key: StorageKey) async throws -> StoredObject? {
        let name = objectName(key)
        let response = try await send(.HEAD, name, timeout: configuration.callTimeout)
        if response.status == .notFound { return nil }
        try await check(response, .HEAD, name, key: key)
        guard let size = response.headers.first(name: "Content-Length").flatMap({ Int64($0) }) else {
            throw MediaStoreError.unavailable("HEAD \(describe(name)): no Content-Length in S3's answer")
        }
        return StoredObject(key: key, size: size, etag: etag(response.headers), modified: modified(response.headers))
    }

    /// The object's bytes, or those of `range`, as they arrive: the stream asks AsyncHTTPClient
    /// for the next piece only when its reader does (back-pressure), and fails when S3 leaves
    /// a piece asked for unsent for `transferTimeout`.
    func get(_ key: StorageKey, range: ClosedRange<Int64>?) async throws -> StoredBytes {
        let name = objectName(key)
        let headers: [(name: String, value: String)] = range.map { [("Range", "bytes=\($0.lowerBound)-\($0.upperBound)")] } ?? []
        let response = try await send(.GET, name, headers: headers, timeout: configuration.callTimeout)
        try await check(response, .GET, name, key: key)
        // The object's size: the total of Content-Range for a range, else Content-Length.
        var size = response.headers.first(name: "Content-Length").flatMap { Int64($0) } ?? 0
        if response.status == .partialContent, let total = response.headers.first(name: "Content-Range")?.split(separator: "/").last.flatMap({ Int64($0) }) {
            size = total
        }
        let object = StoredObject(key: key, size: size, etag: etag(response.headers), modified: modified(response.headers))
        let pump = ResponseBodyPump(response.body, idleLimit: configuration.transferTimeout)
        return StoredBytes(object: object, body: AsyncThrowingStream(unfolding: { try await pump.next() }))
    }

    /// Stores `length` bytes of the file in one PUT.
    func put(file: String, length: Int64, as key: StorageKey, contentType: String) async throws {
        let name = objectName(key)
        let response = try await send(
            .PUT, name, headers: [("Content-Type", contentType)], body: .file(path: file, offset: 0, length: length), timeout: uploadTimeout(length))
        try await check(response, .PUT, name, key: nil)
    }

    func delete(_ key: StorageKey) async throws {
        let name = objectName(key)
        let response = try await send(.DELETE, name, timeout: configuration.callTimeout)
        if response.status == .notFound { return }
        try await check(response, .DELETE, name, key: nil)
    }

    /// Every object whose name starts with `namePrefix`, page after page.
    func list(namePrefix: String) async throws -> [S3ListPage.Entry] {
        var entries: [S3ListPage.Entry] = []
        var continuation: String?
        repeat {
            var query: [(name: String, value: String)] = [("list-type", "2"), ("prefix", namePrefix), ("max-keys", String(configuration.listPageSize))]
            if let continuation { query.append(("continuation-token", continuation)) }
            let response = try await send(.GET, nil, query: query, timeout: configuration.callTimeout)
            try await check(response, .GET, nil, key: nil)
            guard let page = S3ListPage(try await smallBody(response)) else {
                throw MediaStoreError.unavailable("GET \(describe(nil)): S3's list is not the XML it should be")
            }
            entries += page.entries
            continuation = page.continuation
        } while continuation != nil
        return entries
    }

    func etag(_ headers: HTTPHeaders) -> String { headers.first(name: "ETag") ?? "" }

    func modified(_ headers: HTTPHeaders) -> Date {
        headers.first(name: "Last-Modified").flatMap(S3Dates.httpDate) ?? Date(timeIntervalSince1970: 0)
    }
}
