import Foundation
import PostgresKit

/// How a database URL becomes a PostgreSQL connection: over TCP
/// (`postgres://user:pass@host:port/db`) or, when the database is on the same machine, over its
/// Unix socket, written as libpq writes it (`postgres://user@/db?host=/var/run/postgresql&port=5432`,
/// the socket being `.s.PGSQL.<port>` in that directory). A socket skips the TCP stack on both ends,
/// which is a large part of a short statement's cost (docs/storage.md).
enum PostgresURL {
    static let schemes: Set<String> = ["postgres", "postgresql", "postgres+tcp", "postgresql+tcp", "postgres+uds", "postgresql+uds"]

    static func configuration(_ url: String, name: String = "database URL") throws -> SQLPostgresConfiguration {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            schemes.contains(scheme)
        else {
            throw ConfigError("the \(name) must look like postgres://user:pass@host:port/db (got \"\(redacted(url))\")")
        }
        guard let directory = components.queryItems?.last(where: { $0.name == "host" })?.value, directory.hasPrefix("/") else {
            do {
                return try SQLPostgresConfiguration(url: url)
            } catch {
                throw ConfigError("the \(name) \"\(redacted(url))\" is not one PostgreSQL understands: \(error)")
            }
        }
        guard let user = components.user, !user.isEmpty else {
            throw ConfigError("the \(name) needs a user name: postgres://user@/db?host=\(directory)")
        }
        let database = components.path.split(separator: "/").first.map(String.init)
        let port = components.port ?? components.queryItems?.last(where: { $0.name == "port" })?.value.flatMap { Int($0) } ?? 5432
        return SQLPostgresConfiguration(
            unixDomainSocketPath: "\(directory)/.s.PGSQL.\(port)",
            username: user, password: components.password, database: database)
    }

    /// The URL without its password, for error messages that may end up in a log.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "…"
        return components.string ?? url
    }
}
