import Testing

/// Waits until `condition` holds, checking every 20 ms; records an issue and throws after `limit`.
/// Deadlines are generous: on a loaded 2-core machine an event can take seconds, and a test waits
/// for the event rather than sleeping a fixed time and hoping.
public func eventually(
    within limit: Duration = .seconds(20), isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("the condition did not hold within \(limit)", sourceLocation: sourceLocation)
    throw TestFailure("timed out after \(limit)")
}
