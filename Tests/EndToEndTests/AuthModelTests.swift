import Foundation
import KithCore
import KithKit
import KithTestSupport
import Observation
import Testing

/// The observable state a SwiftUI app binds to, driven against a live server.
@Suite("AuthModel (against a live server)")
@MainActor
struct AuthModelTests {
    @Test("start, sign up, a refused weak password, sign out, and start again on a stored session")
    func lifeCycle() async throws {
        try await LiveServer.run { server in
            let store = InMemorySessionStore()
            let email = uniqueEmail("model")
            let model = await AuthModel(client: server.client(store: store))
            await MainActor.run { #expect(model.state == .loading) }

            await model.start()
            await MainActor.run { #expect(model.state == .signedOut) }

            // A weak password is explained, and nothing changes.
            await model.signUp(email: email, password: "short")
            await MainActor.run {
                #expect(model.state == .signedOut)
                #expect(model.lastError?.code == .weakPassword)
                #expect(model.lastError?.field == "password")
                #expect(model.lastError?.userMessage == "Use at least 8 characters for your password.")
            }

            await model.signUp(email: email, password: "long enough password")
            await MainActor.run {
                #expect(model.lastError == nil, "a successful action clears the last error")
                guard case .signedIn(let user) = model.state else {
                    Issue.record("expected signedIn, got \(model.state)")
                    return
                }
                #expect(user.email == email)
            }

            await model.signOut()
            await MainActor.run { #expect(model.state == .signedOut) }
            #expect(try store.load() == nil)

            // Wrong password: an error to show, still signed out.
            await model.signIn(email: email, password: "not the password")
            await MainActor.run {
                #expect(model.state == .signedOut)
                #expect(model.lastError?.code == .invalidCredentials)
            }

            // An app launch with a stored session starts signed in.
            try await server.client(store: store).signIn(email: email, password: "long enough password")
            let relaunched = await AuthModel(client: server.client(store: store))
            await relaunched.start()
            await MainActor.run {
                guard case .signedIn(let user) = relaunched.state else {
                    Issue.record("expected signedIn after launch, got \(relaunched.state)")
                    return
                }
                #expect(user.email == email)
            }
        }
    }

    @Test("observation tracking sees state change when signing in")
    func observationSeesSignIn() async throws {
        try await LiveServer.run { server in
            let email = uniqueEmail("observed")
            try await server.client().signUp(email: email, password: "long enough password")
            let model = await AuthModel(client: server.client())
            await model.start()
            let changed = Locked(0)
            await MainActor.run {
                withObservationTracking {
                    _ = model.state
                } onChange: {
                    changed.withLock { $0 += 1 }
                }
            }
            #expect(changed.value == 0)
            await model.signIn(email: email, password: "long enough password")
            #expect(changed.value >= 1, "withObservationTracking did not see `state` change")
            await MainActor.run {
                guard case .signedIn = model.state else {
                    Issue.record("expected signedIn, got \(model.state)")
                    return
                }
            }
        }
    }

    @Test("a session the server ends elsewhere turns the model signed out")
    func serverEndedSession() async throws {
        try await LiveServer.run { server in
            let email = uniqueEmail("elsewhere")
            let store = InMemorySessionStore()
            let model = await AuthModel(client: server.client(store: store))
            await model.start()
            await model.signUp(email: email, password: "long enough password")
            await MainActor.run {
                guard case .signedIn = model.state else {
                    Issue.record("expected signedIn, got \(model.state)")
                    return
                }
            }

            // The password is changed on another device: this one's session ends.
            let other = server.client()
            try await other.signIn(email: email, password: "long enough password")
            try await other.changePassword(current: "long enough password", new: "changed elsewhere")

            // The app makes any request through the model's client; the model follows.
            let error = await expectKithError { try await model.client.me() }
            #expect(error == .sessionExpired)
            let deadline = ContinuousClock.now + .seconds(2)
            while await MainActor.run(body: { model.state }) != .signedOut, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            await MainActor.run { #expect(model.state == .signedOut) }
        }
    }
}
