import AsyncHTTPClient
import Foundation
import NIOCore

/// Hands out a response body's pieces one at a time, each asked of AsyncHTTPClient only when
/// the reader asks (back-pressure), and each within `idleLimit` of being asked for: the bucket
/// shares the server's client, which has no read timeout, so a body S3 stops sending in the
/// middle fails here (`MediaStoreError.unavailable`) and its request is cancelled, instead of
/// holding its reader and connection for ever. The time a reader takes between two pieces is
/// its own, not counted.
///
/// The body's iterator is not Sendable, so it lives in this actor; each piece is read by a task
/// on the actor that a watchdog cancels when the limit passes.
actor ResponseBodyPump {
    private var iterator: HTTPClientResponse.Body.AsyncIterator
    private let idleLimit: Duration
    /// Set by the watchdog when it cancels a read; the body is over once a read failed.
    private var stalled = false
    private var failure: (any Error)?

    init(_ body: HTTPClientResponse.Body, idleLimit: Duration) {
        iterator = body.makeAsyncIterator()
        self.idleLimit = idleLimit
    }

    /// Called by one reader at a time (the stream's), so the copy taken here is the only one
    /// in use until it is put back.
    func next() async throws -> ByteBuffer? {
        if let failure { throw failure }
        let read = Task { () async throws -> ByteBuffer? in
            var current = iterator
            let piece = try await current.next(isolation: self)
            iterator = current
            return piece
        }
        let limit = idleLimit
        let watchdog = Task {
            try await Task.sleep(for: limit)
            stalled = true
            read.cancel()
        }
        defer { watchdog.cancel() }
        do {
            let piece = try await withTaskCancellationHandler {
                try await read.value
            } onCancel: {
                read.cancel()
            }
            // A body cancelled by the watchdog may end rather than fail: it did not end.
            if piece == nil, stalled { throw CancellationError() }
            return piece
        } catch {
            let reported = stalled ? MediaStoreError.unavailable("S3 sent nothing for \(limit) in the middle of an answer") : error
            failure = reported
            throw reported
        }
    }

    /// The whole body, when it is at most `limit` bytes (a list page, an error document).
    func collect(upTo limit: Int) async throws -> Data {
        var data = Data()
        while let piece = try await next() {
            guard data.count + piece.readableBytes <= limit else { throw MediaStoreError.unavailable("S3's answer is longer than \(limit) bytes") }
            data.append(contentsOf: piece.readableBytesView)
        }
        return data
    }
}
