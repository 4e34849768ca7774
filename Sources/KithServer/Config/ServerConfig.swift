import Foundation
import KithCore
import Logging

/// Everything the server needs to start. The `kith serve` command fills it from flags, then
/// `KITH_*` environment variables, then these defaults.
public struct ServerConfig: Sendable {
    public var dataDirectory: String = "./kith-data"
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    /// `postgres://user:pass@host:port/db`, or `postgres://user@/db?host=/socket/directory`; nil means the embedded SQLite file in the data directory.
    public var databaseURL: String?
    /// Where the live-nudge listener connects (`LISTEN` needs a session of its own): straight to
    /// PostgreSQL when `databaseURL` names a pooler in transaction mode such as PgBouncer. Nil: `databaseURL`.
    public var databaseListenURL: String?
    /// Whether PostgreSQL statements stay prepared per connection (`KITH_DATABASE_PREPARED_STATEMENTS`,
    /// default on); off behind a pooler in transaction mode that can't carry them (PgBouncer before 1.21).
    public var databasePreparedStatements = true
    /// Pooled PostgreSQL connections per event loop, one loop per core (`KITH_DATABASE_CONNECTIONS_PER_CORE`).
    public var databaseConnectionsPerCore = PostgresPoolSize.standard
    /// `smtp://user:pass@host:port`; nil means mail goes to `<data>/outbox/` as .eml files.
    public var smtpURL: String?
    public var mailFrom: String = "kith@localhost"
    /// The address people reach the server at, for links in mail. Defaults to the address it listens on.
    public var publicURL: String?
    public var accounts = AccountSettings()
    public var clock: Clock = .system
    /// New ids and random picks; tests fix them with `IdentifierSource.sequential()`.
    public var ids: IdentifierSource = .system
    /// How many days of Nutrition logs are kept (`KITH_NUTRITION_RETENTION_DAYS`, default 90): the
    /// window the catalog's rules refuse older days with, and the one the retention job purges by.
    public var nutritionRetention = NutritionRetention.standard
    /// The synced entity types the server accepts: every app's (`EntityCatalog.kith` with
    /// `nutritionRetention`) unless set, as tests do with their own declarations.
    public var entities: EntityCatalog {
        get { customEntities ?? .kith(nutritionRetention: nutritionRetention) }
        set { customEntities = newValue }
    }
    private var customEntities: EntityCatalog?
    public var jobs = JobSettings()
    public var live = LiveSettings()
    public var monica = MonicaSettings()
    public var connections = ConnectionSettings()
    /// Food search providers (FatSecret, Open Food Facts, the built-in list); docs/food-search.md.
    public var foodSearch = FoodSearchSettings()
    /// Web Push: devices per account, and the loopback escape for tests (docs/push.md).
    public var push = WebPushSettings()
    /// Tiles for the Contacts pages' address maps (`KITH_MAP_TILES`); nil turns maps off.
    public var mapTiles: MapTiles? = .openStreetMap
    /// Where contacts' addresses are located (`KITH_GEOCODER_URL`); nil turns geocoding off.
    public var geocoder: GeocoderSettings? = .openStreetMap
    /// The bearer token `GET /metrics` requires; nil turns the endpoint off (404).
    public var metricsToken: String?
    public var logLevel: Logger.Level = .info

    public init() {}

    public var databaseLocation: DatabaseLocation {
        if let databaseURL, !databaseURL.isEmpty { return .postgres(url: databaseURL) }
        return .sqlite(path: URL(fileURLWithPath: dataDirectory).appendingPathComponent("kith.sqlite").path)
    }

    public var outboxDirectory: URL { URL(fileURLWithPath: dataDirectory).appendingPathComponent("outbox") }

    /// Reads the `KITH_*` variables over the defaults; flags are applied by the caller afterwards.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> ServerConfig
    {
        var config = ServerConfig()
        if let value = environment["KITH_DATA"] { config.dataDirectory = value }
        if let value = environment["KITH_HOST"] { config.host = value }
        if let value = environment["KITH_PORT"] {
            guard let port = Int(value), (0...65535).contains(port) else {
                throw ConfigError("KITH_PORT must be a port number (0-65535), got \"\(value)\"")
            }
            config.port = port
        }
        if let value = environment["KITH_DATABASE_URL"], !value.isEmpty { config.databaseURL = value }
        if let value = environment["KITH_DATABASE_LISTEN_URL"], !value.isEmpty { config.databaseListenURL = value }
        if let value = environment["KITH_DATABASE_PREPARED_STATEMENTS"] {
            switch value.lowercased() {
            case "on", "true", "1": config.databasePreparedStatements = true
            case "off", "false", "0": config.databasePreparedStatements = false
            default:
                throw ConfigError("KITH_DATABASE_PREPARED_STATEMENTS must be on or off, got \"\(value)\"")
            }
        }
        if let value = environment["KITH_DATABASE_CONNECTIONS_PER_CORE"] {
            guard let count = Int(value), (1...64).contains(count) else {
                throw ConfigError("KITH_DATABASE_CONNECTIONS_PER_CORE must be a number from 1 to 64, got \"\(value)\"")
            }
            config.databaseConnectionsPerCore = count
        }
        if let value = environment["KITH_SMTP_URL"], !value.isEmpty { config.smtpURL = value }
        if let value = environment["KITH_MAIL_FROM"], !value.isEmpty { config.mailFrom = value }
        if let value = environment["KITH_PUBLIC_URL"], !value.isEmpty { config.publicURL = value }
        if let value = environment["KITH_BCRYPT_COST"] {
            guard let cost = UInt8(value), (4...31).contains(cost) else {
                throw ConfigError("KITH_BCRYPT_COST must be a number from 4 to 31, got \"\(value)\"")
            }
            config.accounts.bcryptCost = cost
        }
        if let value = environment["KITH_API_RATE_LIMIT"] {
            guard let limit = Int(value), limit > 0 else {
                throw ConfigError("KITH_API_RATE_LIMIT must be a number of requests per minute above 0, got \"\(value)\"")
            }
            config.monica.rateLimitPerMinute = limit
        }
        if let value = environment["KITH_METRICS_TOKEN"], !value.isEmpty {
            guard value.count >= 16 else {
                throw ConfigError("KITH_METRICS_TOKEN must be at least 16 characters (it guards the server's metrics)")
            }
            config.metricsToken = value
        }
        if let value = environment["KITH_IDLE_TIMEOUT"] {
            config.connections.idleTimeout = .seconds(try seconds(value, variable: "KITH_IDLE_TIMEOUT"))
        }
        if let value = environment["KITH_REQUEST_TIMEOUT"] {
            config.connections.requestReadTimeout = .seconds(try seconds(value, variable: "KITH_REQUEST_TIMEOUT"))
        }
        if let value = environment["KITH_MAX_CONNECTIONS"] {
            guard let limit = Int(value), limit > 0 else {
                throw ConfigError("KITH_MAX_CONNECTIONS must be a number of connections above 0, got \"\(value)\"")
            }
            config.connections.maximumConnections = limit
        }
        if let value = environment["KITH_NUTRITION_RETENTION_DAYS"] {
            config.nutritionRetention = try nutritionRetention(value, source: "KITH_NUTRITION_RETENTION_DAYS")
        }
        try config.foodSearch.read(environment)
        try config.push.read(environment)
        if let value = environment["KITH_MAP_TILES"] { config.mapTiles = try MapTiles.setting(value) }
        if let value = environment["KITH_GEOCODER_URL"] { config.geocoder = try GeocoderSettings.setting(value) }
        if let value = environment["KITH_LOG_LEVEL"] {
            guard let level = Logger.Level(rawValue: value) else {
                throw ConfigError("KITH_LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical")
            }
            config.logLevel = level
        }
        return config
    }

    /// A retention window from text (`source` names the variable or flag in the message). Values
    /// outside `NutritionRetention.allowedDays` stop the server with a message rather than being
    /// clamped: the window decides what is deleted, so it is never one nobody chose.
    public static func nutritionRetention(_ value: String, source: String) throws -> NutritionRetention {
        let allowed = NutritionRetention.allowedDays
        guard let days = Int(value.trimmingCharacters(in: .whitespaces)), let retention = NutritionRetention(days: days)
        else {
            throw ConfigError(
                "\(source) must be a number of days from \(allowed.lowerBound) to \(allowed.upperBound), got \"\(value)\""
            )
        }
        return retention
    }

    private static func seconds(_ value: String, variable: String) throws -> Int64 {
        guard let seconds = Int64(value), (1...86_400).contains(seconds) else {
            throw ConfigError("\(variable) must be a number of seconds from 1 to 86400, got \"\(value)\"")
        }
        return seconds
    }

    /// Checks what can be checked before start-up, so a typo fails with a message instead of later.
    public func validate() throws {
        for (name, url) in [("database URL", databaseURL), ("database listen URL", databaseListenURL)] {
            if let url { _ = try PostgresURL.configuration(url, name: name) }
        }
        if databaseListenURL != nil, databaseURL == nil {
            throw ConfigError("a database listen URL needs a database URL: it is for PostgreSQL behind a pooler")
        }
        if let publicURL, URL(string: publicURL)?.host == nil {
            throw ConfigError("the public URL must be an absolute http(s) URL (got \"\(publicURL)\")")
        }
        try foodSearch.validate()
    }
}

public struct ConfigError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
