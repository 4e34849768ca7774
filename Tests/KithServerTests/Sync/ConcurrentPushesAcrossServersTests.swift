import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// The cursor's promise under load: many pushes at once, through several servers on one database
/// (PostgreSQL; SQLite has one server), into a family scope every writer shares and each writer's
/// own scope, while devices pull in small pages all along. Every device ends up with every record
/// it may read, each seen exactly once: no change skipped by a page that ran ahead of a commit,
/// none repeated.
@Suite("Concurrent pushes across servers")
struct ConcurrentPushesAcrossServersTests {
    static let writers = 6
    static let pushesPerWriter = 8
    static let mutationsPerPush = 12
    static let pageSize = 7

    /// Everyone is a parent of one family, so every writer may write its chores.
    struct OneFamily: ScopeDirectory {
        let family: String
        func memberships(userID: String) async throws -> [ScopeMembership] {
            [ScopeMembership(scope: "user:\(userID)", role: nil), ScopeMembership(scope: family, role: "parent")]
        }
    }

    @Test(arguments: Engine.available)
    func everyDeviceSeesEveryChangeOnceWhilePushesRaceOnSeveralServers(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { first, client in
            var signedUp: [String] = []
            for index in 0..<Self.writers {
                signedUp.append(try await client.signUp("writer\(index)@example.com").user.id.uuidString.lowercased())
            }
            let users = signedUp
            guard engine == .postgres, let shared = first.config.databaseURL else {
                try await Self.race(users: users, on: [first])
                return
            }
            try await TestServer.withRouter(.postgres, sharedDatabaseURL: shared) { second, _ in
                try await TestServer.withRouter(.postgres, sharedDatabaseURL: shared) { third, _ in
                    try await Self.race(users: users, on: [first, second, third])
                }
            }
        }
    }

    /// Each user pushes creations, half into the shared family and half into their own scope, each
    /// push through the next server in turn; meanwhile every user's device pulls through its own
    /// server until the pushes are done, then to the end.
    static func race(users: [String], on servers: [TestServer]) async throws {
        let family = "family:\(UUID().uuidString.lowercased())"
        let rules = SyncRules(
            catalog: EntityCatalog([SyncScopesTests.chore, SyncScopesTests.note]), directory: OneFamily(family: family))
        let writers = servers.map { server in
            SyncWriter(
                repository: SyncRepository(database: server.app.database), rules: rules,
                clock: Clock { Date(timeIntervalSince1970: 2) }, notifier: LocalChangeNotifier(hub: LiveHub()))
        }
        let pushing = Locked(users.count)
        /// What one task did: the ids a writer made, or the ids a user's device pulled, by scope.
        enum Outcome { case wrote([String: Set<UUID>]), pulled(user: String, [String: Set<UUID>]) }
        var made: [String: Set<UUID>] = [:]
        var pulled: [String: [String: Set<UUID>]] = [:]
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            for (index, user) in users.enumerated() {
                group.addTask {
                    defer { pushing.withLock { $0 -= 1 } }
                    var made: [String: Set<UUID>] = [:]
                    for push in 0..<pushesPerWriter {
                        var mutations: [Mutation] = []
                        for number in 0..<mutationsPerPush {
                            let mutation =
                                number % 2 == 0
                                ? SyncScopesTests.mutation("test.chore", scope: family, title: "chore \(number)")
                                : SyncScopesTests.mutation("test.note", scope: "user:\(user)", title: "note \(number)")
                            made[mutation.scope, default: []].insert(mutation.id)
                            mutations.append(mutation)
                        }
                        let answer = try await writers[(index + push) % writers.count].push(mutations, userID: user)
                        #expect(answer.results.allSatisfy { $0.status == .applied }, "\(answer.results)")
                    }
                    return .wrote(made)
                }
            }
            for (index, user) in users.enumerated() {
                group.addTask {
                    let writer = writers[index % writers.count]
                    var seen: [String: Set<UUID>] = [:]
                    var cursor = SyncCursor()
                    var pushesDone = false
                    let deadline = ContinuousClock.now + .seconds(120)
                    while ContinuousClock.now < deadline {
                        // A device pulls now and then; a loop that never lets go would keep the
                        // writers' tasks off the threads (SQLite reads finish without suspending).
                        await Task.yield()
                        let page = try await writer.pull(userID: user, after: cursor, limit: pageSize)
                        for change in page.changes {
                            let id = try #require(UUID(text: change.id))
                            let new = seen[change.scope, default: []].insert(id).inserted
                            #expect(new, "\(change.id) in \(change.scope) was pulled twice by \(user)")
                        }
                        cursor = try #require(SyncCursor(text: page.cursor))
                        if page.hasMore { continue }
                        // Done once a pull that began after every push ended has reached the end.
                        if pushesDone { break }
                        pushesDone = pushing.value == 0
                    }
                    #expect(pushesDone, "the pushes did not end within two minutes")
                    return .pulled(user: user, seen)
                }
            }
            for try await outcome in group {
                switch outcome {
                case .wrote(let ids): made.merge(ids) { $0.union($1) }
                case .pulled(let user, let ids): pulled[user] = ids
                }
            }
        }
        #expect(made[family]?.count == users.count * pushesPerWriter * mutationsPerPush / 2)
        for user in users {
            let expected = made.filter { $0.key == family || $0.key == "user:\(user)" }
            #expect(pulled[user] == expected, "what \(user)'s device pulled")
        }
    }
}
