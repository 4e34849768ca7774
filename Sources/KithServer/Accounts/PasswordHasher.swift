import HummingbirdBcrypt
import NIOPosix

/// bcrypt on NIO's blocking thread pool: one hash costs tens of milliseconds and must not stall
/// the event loops or Swift's cooperative threads that serve every other request.
struct PasswordHasher: Sendable {
    let cost: UInt8

    /// A hash of a random password, verified when the email is unknown so that an unknown email
    /// takes as long to refuse as a wrong password.
    private let decoy: String

    init(cost: UInt8) {
        self.cost = cost
        self.decoy = Bcrypt.hash(Tokens.generate(.passwordReset), cost: cost)
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, against hash: String?) async throws -> Bool {
        let target = hash ?? decoy
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: target) }
        return matches && hash != nil
    }
}
