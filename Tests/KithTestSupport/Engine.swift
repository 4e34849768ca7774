import Foundation
import Testing

/// The storage engines tests that touch storage run on: SQLite always, PostgreSQL when
/// `KITH_TEST_DATABASE_URL` names a server whose role may create databases (`scripts/test` starts one).
/// Used as a test argument: `@Test(arguments: Engine.available)`.
public enum Engine: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    /// The PostgreSQL server tests create their scratch databases on; nil (also when empty) for SQLite only.
    public static var adminURL: String? {
        ProcessInfo.processInfo.environment["KITH_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public static var available: [Engine] { adminURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    public var testDescription: String { rawValue }
}
