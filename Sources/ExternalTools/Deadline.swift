/// Work that must end by a deadline: past it the work's task is cancelled (for a program,
/// that ends its process group) and `ExternalTool.Failure.timedOut` is thrown.
enum Deadline {
    static func run<T: Sendable>(_ limit: Duration, name: String, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw ExternalTool.Failure(.timedOut, "\(name) ran past its \(limit.components.seconds) s deadline and was ended")
            }
            return value
        }
    }
}
