// swift-tools-version:6.1
import PackageDescription

/// Every target is built with these: `any` spelled out wherever a protocol is used as a type.
let strictness: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "kith",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "KithCore", targets: ["KithCore"]),
        .library(name: "KithKit", targets: ["KithKit"]),
        .library(name: "KithServer", targets: ["KithServer"]),
        .executable(name: "kith", targets: ["kith"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ],
    targets: [
        // Shared by server and clients: domain types, wire DTOs, validation. Foundation only, no I/O.
        .target(name: "KithCore", swiftSettings: strictness),
        // The client SDK. Must stay free of server-only dependencies so an iOS app can embed it.
        .target(
            name: "KithKit",
            dependencies: ["KithCore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictness
        ),
        // The live socket and HTTP over SwiftNIO, for platforms whose URLSession has no WebSocket
        // or is slow (Linux). Kept out of KithKit so an iOS app does not carry NIO.
        .target(
            name: "KithKitNIO",
            dependencies: [
                "KithKit", .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strictness
        ),
        // The server as a library: buildApplication(config).
        .target(
            name: "KithServer",
            dependencies: [
                "KithCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                // The system SQLite, which the server drives directly (Storage/SQLite).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // The live socket's WebSocket frames and the HTTP/1 upgrade (HTTP/Connections).
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Outbound HTTP (food search providers); the server only, never KithKit.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            resources: [.copy("Web/Templates"), .copy("Web/Static"), .copy("API/openapi.yaml")],
            swiftSettings: strictness
        ),
        // The command line as a library: every command, option and output shape; `KithCLI.run` runs
        // one with a `Console` (the process's, or a test's).
        .target(
            name: "KithCLI",
            dependencies: [
                "KithCore", "KithKit", "KithKitNIO", "KithServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        // The `kith` executable: its `@main` hands the process's arguments and streams to KithCLI.
        .executableTarget(name: "kith", dependencies: ["KithCLI"], swiftSettings: strictness),
        // Fills a profile's local store as an app would: for bench/run-sync, and the end-to-end test
        // that kills a device mid-write (not shipped).
        .executableTarget(
            name: "kith-bench", dependencies: ["KithKit", "KithCore"], path: "bench/Sources/kith-bench",
            swiftSettings: strictness),
        // What the test targets share: clock, storage engines, scratch databases, outbox, loopback
        // sockets, child processes. A plain library (not a product) so test targets can depend on it.
        .target(
            name: "KithTestSupport",
            dependencies: [
                "KithKit", "KithServer", "KithCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Tests/KithTestSupport",
            swiftSettings: strictness
        ),
        .testTarget(name: "KithCoreTests", dependencies: ["KithCore"], swiftSettings: strictness),
        .testTarget(
            name: "KithServerTests",
            dependencies: [
                "KithServer", "KithCore", "KithTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "KithKitTests",
            dependencies: ["KithKit", "KithCore", "KithTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictness
        ),
        // The command line in-process (KithCLI.run with a recording Console): parsing, global options,
        // each command group's output against a real server on a loopback port.
        .testTarget(
            name: "KithCLITests",
            dependencies: [
                "KithCLI", "KithServer", "KithKit", "KithCore", "KithTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        // A real server on a loopback port, driven by KithKit clients and by the `kith` binary.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "KithKit", "KithKitNIO", "KithServer", "KithCore", "KithTestSupport", "kith", "kith-bench",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strictness
        ),
    ]
)
