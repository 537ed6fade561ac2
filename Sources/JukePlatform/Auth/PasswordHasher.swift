import HummingbirdBcrypt
import NIOPosix

/// bcrypt, run off the event loops: one hash costs a few hundred milliseconds by design.
struct PasswordHasher: Sendable {
    let cost: UInt8
    /// A real hash to verify against when the username does not exist, so that the answer
    /// takes as long as for a wrong password and does not reveal which usernames exist.
    let decoyHash: String

    init(cost: UInt8) {
        self.cost = cost
        self.decoyHash = Bcrypt.hash(Tokens.generate(), cost: cost)
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
