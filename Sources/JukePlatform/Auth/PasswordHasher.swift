import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// bcrypt, run off the event loops: one hash costs a few hundred milliseconds by design.
///
/// bcrypt reads only the first 72 bytes of what it is given, so two long passwords that share
/// them would be one password. What bcrypt hashes is therefore the password's HMAC-SHA-256 in
/// base64 (44 bytes, every byte of the password in it), and the stored hash says so with a
/// "jk1$" mark. Hashes from before (bcrypt of the password itself) still verify, and are
/// replaced at their owner's next sign-in (`needsUpgrade`).
///
/// The work goes through a gate: as many hashes at once as the machine has cores, a bounded
/// queue behind them, and "busy" (503 with Retry-After) beyond it, so that a flood of sign-ups
/// cannot leave sign-ins waiting for seconds.
struct PasswordHasher: Sendable {
    let cost: UInt8
    /// A real hash to verify against when the username does not exist, so that the answer
    /// takes as long as for a wrong password and does not reveal which usernames exist.
    let decoyHash: String
    let gate: WorkGate

    static let scheme = "jk1$"
    /// Not a secret: the HMAC is there to give bcrypt every byte of a long password.
    static let prehashKey = Array("juke password v1".utf8)

    init(cost: UInt8, gate: WorkGate = WorkGate(running: max(1, ProcessInfo.processInfo.activeProcessorCount), waiting: 64)) {
        self.cost = cost
        self.gate = gate
        self.decoyHash = Self.scheme + Bcrypt.hash(Self.prehash(Tokens.generate()), cost: cost)
    }

    static func prehash(_ password: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Array(password.utf8), using: SymmetricKey(data: prehashKey))).base64EncodedString()
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await gate.run {
            try await NIOThreadPool.singleton.runIfActive { Self.scheme + Bcrypt.hash(Self.prehash(password), cost: cost) }
        }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        try await gate.run {
            try await NIOThreadPool.singleton.runIfActive {
                if hash.hasPrefix(Self.scheme) { return Bcrypt.verify(Self.prehash(password), hash: String(hash.dropFirst(Self.scheme.count))) }
                return Bcrypt.verify(password, hash: hash)
            }
        }
    }

    /// A hash from before the pre-hash, to be replaced once its password is known good.
    func needsUpgrade(_ hash: String) -> Bool { !hash.hasPrefix(Self.scheme) }
}
