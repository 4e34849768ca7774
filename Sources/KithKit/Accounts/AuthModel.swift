import Foundation
import KithCore
import Observation

/// Whether a person is signed in, as a UI shows it.
public enum AuthState: Equatable, Sendable {
    /// The stored session is being read; show a progress indicator.
    case loading
    case signedOut
    case signedIn(UserDTO)
}

/// The observable authentication state of an app. A SwiftUI view binds to `state`; every action
/// updates it, and so does a session the server ends (expired, revoked, password reset elsewhere).
@MainActor
@Observable
public final class AuthModel {
    public private(set) var state: AuthState = .loading
    /// The last failure of an action, for showing next to the form; cleared by the next action.
    public private(set) var lastError: KithError?
    public let client: KithClient
    @ObservationIgnored private var observerKey: UUID?

    public init(client: KithClient) {
        self.client = client
    }

    /// Reads the stored session (check for a session at launch) and follows changes.
    public func start() async {
        if observerKey == nil {
            observerKey = await client.observeSession { [weak self] session in
                Task { @MainActor in self?.apply(session) }
            }
        }
        do {
            apply(try await client.storedSession())
        } catch {
            lastError = error as? KithError ?? .storage("\(error)")
            state = .signedOut
        }
    }

    public func signUp(email: String, password: String) async { await perform { try await $0.signUp(email: email, password: password) } }
    public func signIn(email: String, password: String) async { await perform { try await $0.signIn(email: email, password: password) } }
    public func signOut() async { await perform { try await $0.signOut() } }
    public func deleteAccount(password: String) async { await perform { try await $0.deleteAccount(password: password) } }
    public func changePassword(current: String, new: String) async {
        await perform { try await $0.changePassword(current: current, new: new) }
    }
    public func requestPasswordReset(email: String) async { await perform { try await $0.requestPasswordReset(email: email) } }

    private func perform(_ action: @Sendable (KithClient) async throws -> some Sendable) async {
        lastError = nil
        do {
            _ = try await action(client)
            apply(try await client.storedSession())
        } catch {
            lastError = error as? KithError ?? .invalidResponse("\(error)")
            if lastError == .sessionExpired { state = .signedOut }
        }
    }

    private func apply(_ session: StoredSession?) {
        state = session.map { .signedIn($0.user) } ?? .signedOut
    }
}
