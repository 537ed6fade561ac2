import Foundation
import NIOCore

/// A response's body while its transcode is still being written: it reads the job's file
/// from the start, and when it has caught up with ffmpeg it waits for more, until the job
/// has finished. The file, not memory, holds what a slow listener has not taken yet.
public struct TranscodeFollower: AsyncSequence, Sendable {
    public typealias AsyncIterator = Iterator
    public typealias Element = ByteBuffer

    /// The open file and the job it follows; closing the file and telling the job happen
    /// once, when the response is done with it (finished, or the listener gone).
    final class Source: Sendable {
        let descriptor: Int32
        let job: TranscodeJob

        init(job: TranscodeJob) throws(TranscodeError) {
            // Opened before the job can rename the file: the descriptor follows it.
            let descriptor = open(job.partialPath, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let reopened = open(job.finalPath, O_RDONLY | O_CLOEXEC)
                guard reopened >= 0 else { throw TranscodeError.failed("the transcode's file is gone") }
                self.descriptor = reopened
                self.job = job
                job.attach()
                return
            }
            self.descriptor = descriptor
            self.job = job
            job.attach()
        }

        deinit {
            close(descriptor)
            job.detach()
        }
    }

    let source: Source
    /// How long to wait before looking again once caught up with ffmpeg.
    static let pollInterval = Duration.milliseconds(10)

    public struct Iterator: AsyncIteratorProtocol {
        let source: Source
        var offset: Int64 = 0

        public mutating func next() async throws -> ByteBuffer? {
            while true {
                let state = source.job.snapshot
                if offset < state.written {
                    let count = Int(Swift.min(state.written - offset, 65_536))
                    var buffer = ByteBuffer()
                    let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
                        Swift.max(0, pread(source.descriptor, raw.baseAddress, count, off_t(offset)))
                    }
                    guard read > 0 else { throw TranscodeError.failed("the transcode's file could not be read") }
                    offset += Int64(read)
                    source.job.read(upTo: offset)
                    return buffer
                }
                switch state.phase {
                case .finished: return nil
                case .failed(let why): throw TranscodeError.failed(why)
                case .running: try await Task.sleep(for: TranscodeFollower.pollInterval)
                }
            }
        }
    }

    public func makeAsyncIterator() -> Iterator { Iterator(source: source) }
}

/// Why a transcode could not be had.
public enum TranscodeError: Error, Equatable, Sendable {
    /// Every transcode slot is taken and the line for them is full.
    case busy
    case failed(String)
}
