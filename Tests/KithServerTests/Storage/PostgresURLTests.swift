import Foundation
import KithTestSupport
import Logging
import Testing

@testable import KithServer

/// Database URLs: TCP as PostgresKit reads them, a Unix socket as libpq writes it
/// (`?host=/directory`), and anything else refused at start-up with a message that names the form.
@Suite("PostgreSQL URLs")
struct PostgresURLTests {
    @Test func aHostThatIsADirectoryIsTheUnixSocketInIt() throws {
        let configuration = try PostgresURL.configuration("postgres://kith:secret@/notes?host=/run/postgresql&port=5433")
        let core = configuration.coreConfiguration
        #expect(core.unixSocketPath == "/run/postgresql/.s.PGSQL.5433")
        #expect(core.host == nil)
        #expect(core.username == "kith")
        #expect(core.password == "secret")
        #expect(core.database == "notes")
        #expect(try PostgresURL.configuration("postgresql://kith@/notes?host=/tmp").coreConfiguration.unixSocketPath
            == "/tmp/.s.PGSQL.5432")
    }

    @Test func aHostNameIsTCP() throws {
        let core = try PostgresURL.configuration("postgres://kith:secret@db.example:6432/notes").coreConfiguration
        #expect(core.host == "db.example")
        #expect(core.port == 6432)
        #expect(core.unixSocketPath == nil)
        #expect(core.database == "notes")
    }

    @Test func anythingElseIsRefusedWithoutShowingThePassword() {
        for url in ["mysql://kith:secret@db/notes", "not a url", "postgres://:secret@/notes?host=/tmp", "postgres://"] {
            do {
                _ = try PostgresURL.configuration(url, name: "database listen URL")
                Issue.record("\(url) was taken")
            } catch {
                let message = "\(error)"
                #expect(message.contains("database listen URL"), "\(message)")
                #expect(message.contains("postgres://"), "\(message)")
                #expect(!message.contains("secret"), "\(message)")
            }
        }
    }

    /// `scripts/test` says where the test PostgreSQL's socket is; a database opened over it works.
    @Test(.enabled(if: socketURL != nil, "KITH_TEST_DATABASE_SOCKET_URL is not set"))
    func theServerReachesPostgreSQLOverItsSocket() async throws {
        let database = try await KithDatabase.open(
            .postgres(url: try #require(Self.socketURL)), logger: Logger(label: "kith-test"), migrate: false)
        // A Unix socket's connection has no client address.
        let address: String?
        do {
            address = try await database.read { sql in
                try await sql.raw("SELECT COALESCE(CAST(inet_client_addr() AS TEXT), 'socket') AS address").first(
                    decodingColumn: "address", as: String.self)
            }
        } catch {
            await database.close()
            throw error
        }
        await database.close()
        #expect(address == "socket")
    }

    static var socketURL: String? {
        ProcessInfo.processInfo.environment["KITH_TEST_DATABASE_SOCKET_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
