import Foundation
import KithCore
import KithKit
import Synchronization

/// A network connection a test can cut: while off, every request fails as with no network.
final class NetworkSwitch: HTTPTransport {
    private let inner = URLSessionTransport(timeout: 30)
    private let online = Mutex(true)

    var isOnline: Bool {
        get { online.withLock { $0 } }
        set { online.withLock { $0 = newValue } }
    }

    func send(_ request: HTTPExchangeRequest) async throws -> HTTPExchangeResponse {
        guard isOnline else { throw KithError.offline }
        return try await inner.send(request)
    }
}

/// One device of a test: a signed-in client behind a network switch, its local store and engine.
struct SyncDevice: Sendable {
    let client: KithClient
    let store: LocalStore
    let engine: SyncEngine
    let network: NetworkSwitch
    let userID: UUID

    /// Signs up (`signUp: true`) or in, with an in-memory store unless `storeURL` is given.
    static func make(
        server: URL, email: String, password: String = "device password 1", signUp: Bool = false, storeURL: URL? = nil,
        live: (any LiveTransport)? = nil, configure: (inout SyncEngine.Configuration) -> Void = { _ in },
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> SyncDevice {
        let network = NetworkSwitch()
        let client = KithClient(serverURL: server, store: InMemorySessionStore(), transport: network)
        let user = signUp
            ? try await client.signUp(email: email, password: password) : try await client.signIn(email: email, password: password)
        let store = try LocalStore(url: storeURL, catalog: .kith, userScope: "user:\(user.id.uuidString.lowercased())", now: now)
        var configuration = SyncEngine.Configuration()
        configure(&configuration)
        let engine = SyncEngine(store: store, service: client, live: live, configuration: configuration)
        return SyncDevice(client: client, store: store, engine: engine, network: network, userID: user.id)
    }

    /// Every live Outreach record on the device, by id, for comparing devices.
    func outreachSnapshot() throws -> [UUID: [String: JSONTree]] {
        var snapshot: [UUID: [String: JSONTree]] = [:]
        for declaration in OutreachEntities.all {
            for record in try store.records(declaration.name) { snapshot[record.id] = record.fields }
        }
        return snapshot
    }
}

/// Outreach records for tests.
enum OutreachSample {
    static func year(_ name: String) -> [String: JSONTree] {
        ["name": .string(name), "createdAt": .string(WireCoding.formatTimestamp(Date()))]
    }

    static func contact(year: UUID, first: String, last: String, enterprise: String = "Acme") -> [String: JSONTree] {
        [
            "yearId": .string(year.uuidString.lowercased()), "firstName": .string(first), "lastName": .string(last),
            "enterpriseName": .string(enterprise),
        ]
    }
}
