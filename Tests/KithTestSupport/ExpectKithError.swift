import KithKit
import Testing

/// Expects `body` to throw a `KithError` and returns it, so a test can check its code, message and
/// retryability. Success or any other error is recorded as an issue at the caller's line. Runs on
/// the caller's actor, so a main-actor store can be called in `body`.
@discardableResult
public func expectKithError(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> some Any, sourceLocation: SourceLocation = #_sourceLocation
) async -> KithError? {
    do {
        _ = try await body()
        Issue.record("expected a KithError, but the call succeeded", sourceLocation: sourceLocation)
        return nil
    } catch let error as KithError {
        return error
    } catch {
        Issue.record("expected a KithError, got \(String(reflecting: error))", sourceLocation: sourceLocation)
        return nil
    }
}
