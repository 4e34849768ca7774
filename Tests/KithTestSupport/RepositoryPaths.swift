import Foundation

/// Places in the checkout, found from this file's path so tests work from any working directory.
public enum RepositoryPaths {
    /// The repository root; this file is `<root>/Tests/KithTestSupport/RepositoryPaths.swift`.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // KithTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `Tests/support`: the scripts tests run (the SMTP sink, the test certificate maker).
    public static let testSupport = root.appendingPathComponent("Tests/support")
}
