import ArgumentParser
import Foundation
import KithServer

struct ServeCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Kith server (API and web app).",
        discussion: """
            Flags win over the environment (KITH_DATA, KITH_HOST, KITH_PORT, KITH_DATABASE_URL, KITH_DATABASE_LISTEN_URL, KITH_SMTP_URL,
            KITH_MAIL_FROM, KITH_PUBLIC_URL, KITH_BCRYPT_COST, KITH_NUTRITION_RETENTION_DAYS, KITH_MAP_TILES,
            KITH_LOG_LEVEL), which
            wins over the defaults.
            Stops gracefully on SIGINT or SIGTERM.
            """
    )

    @Option(help: "Data directory: the SQLite file and the mail outbox. Default ./kith-data.")
    var data: String?

    @Option(help: "Address to listen on. Default 127.0.0.1.")
    var host: String?

    @Option(help: "Port to listen on (0 picks a free one). Default 8080.")
    var port: Int?

    @Option(
        name: .customLong("database-url"),
        help:
            "postgres://user:pass@host:port/db (or postgres://user@/db?host=/socket/dir) to use PostgreSQL instead of SQLite."
    )
    var databaseURL: String?

    @Option(
        name: .customLong("database-listen-url"),
        help:
            "postgres://… straight to PostgreSQL for live nudges (LISTEN) when --database-url is a pooler such as PgBouncer in transaction mode."
    )
    var databaseListenURL: String?

    @Option(
        name: .customLong("nutrition-retention-days"),
        help: "Days of Nutrition logs kept; older days are deleted everywhere. 1-36500, default 90.")
    var nutritionRetentionDays: String?

    @Option(
        name: .customLong("map-tiles"),
        help: ArgumentHelp(
            "Tiles for the Contacts pages' maps: a URL template with {z}, {x}, {y}, then optionally the attribution; or off. Default OpenStreetMap's tile server.",
            valueName: "template"))
    var mapTiles: String?

    @Option(
        name: .customLong("geocoder"),
        help: ArgumentHelp(
            "The Nominatim server that locates contacts' addresses from their text (KITH_GEOCODER_URL), or off. Default OpenStreetMap's public one.",
            valueName: "url"))
    var geocoder: String?

    @ParentCommand var kith: KithCommand

    /// Whether `arguments` (a whole command line) serve from PostgreSQL, as `run` will decide.
    static func servesPostgreSQL(_ arguments: [String], environment: [String: String]) -> Bool {
        guard let serve = try? KithCommand.parseAsRoot(arguments) as? ServeCommand,
            case .postgres = try? serve.configuration(environment: environment).databaseLocation
        else { return false }
        return true
    }

    func validate() throws {
        try kith.refuseClientOptions(in: "serve", json: false)
    }

    func run(_ console: Console) async throws {
        let config = try configuration(environment: console.environment)
        let storage =
            switch config.databaseLocation {
            case .sqlite(let path): "SQLite at \(path)"
            case .postgres: "PostgreSQL"
            }
        let host = config.host
        let server = try await buildApplication(config) { port in
            // Scripts and tests wait for this line to know the server is ready and where.
            console.write("Kith is serving http://\(host):\(port) (\(storage))\n")
        }
        // Stops gracefully on SIGINT and SIGTERM (ServiceLifecycle's default signals).
        try await server.application.runService()
    }

    /// The server's settings: flags over the environment over the defaults.
    func configuration(environment: [String: String]) throws -> ServerConfig {
        var config: ServerConfig
        do {
            config = try ServerConfig.fromEnvironment(environment)
        } catch {
            throw ValidationError("\(error)")
        }
        if let data { config.dataDirectory = data }
        if let host { config.host = host }
        if let port {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be 0-65535") }
            config.port = port
        }
        if let databaseURL { config.databaseURL = databaseURL }
        if let databaseListenURL { config.databaseListenURL = databaseListenURL }
        if let mapTiles {
            do {
                config.mapTiles = try MapTiles.setting(mapTiles)
            } catch {
                throw ValidationError("\(error)")
            }
        }
        if let geocoder {
            do {
                config.geocoder = try GeocoderSettings.setting(geocoder)
            } catch {
                throw ValidationError("\(error)")
            }
        }
        if let nutritionRetentionDays {
            do {
                config.nutritionRetention = try ServerConfig.nutritionRetention(
                    nutritionRetentionDays, source: "--nutrition-retention-days")
            } catch {
                throw ValidationError("\(error)")
            }
        }
        return config
    }
}
