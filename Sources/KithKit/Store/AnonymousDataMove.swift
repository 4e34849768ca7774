import Foundation
import KithCore
import Observation

/// Moving the data made before sign-up into a new account (docs/sync.md "Before an
/// account"), as a screen shows it: the records are adopted into the account's store in one local
/// transaction (`LocalStoreDirectory.adoptAnonymousData`), then uploaded with progress (n of total);
/// a failed upload is retried automatically with backoff and nothing is lost, since the changes
/// stay in the outbox until the server acknowledges them; `phase` ends in `.finished` (the
/// confirmation) once every one was acknowledged.
@MainActor
@Observable
public final class AnonymousDataMove {
    public enum Phase: Sendable, Equatable {
        /// Not started.
        case idle
        /// There was nothing to move.
        case nothingToMove
        /// `done` of `total` records are in the account on the server.
        case uploading(done: Int, total: Int)
        /// The last upload failed (`reason`); the next attempt comes by itself.
        case retrying(done: Int, total: Int, reason: String)
        /// Every record is in the account: `total` moved.
        case finished(total: Int)
    }

    public private(set) var phase: Phase = .idle {
        didSet { if phase != oldValue { onChange?(phase) } }
    }
    /// Called with every new phase (for programs that don't observe, such as the command line).
    @ObservationIgnored public var onChange: ((Phase) -> Void)?

    @ObservationIgnored let directory: LocalStoreDirectory
    @ObservationIgnored let engine: SyncEngine
    @ObservationIgnored let backoff: Backoff

    public init(directory: LocalStoreDirectory, engine: SyncEngine, backoff: Backoff = Backoff()) {
        self.directory = directory
        self.engine = engine
        self.backoff = backoff
    }

    /// Adopts and uploads; returns once every record is acknowledged, or after `maxAttempts` failed
    /// uploads in a row (nil: never gives up) or when the task is cancelled, leaving the rest queued
    /// for the engine's next sync. Throws only when the device's own storage fails: the anonymous
    /// data then stays where it was.
    @discardableResult
    public func run(maxAttempts: Int? = nil) async throws -> Phase {
        let total = try directory.adoptAnonymousData(into: engine.store)
        guard total > 0 else {
            phase = .nothingToMove
            return phase
        }
        func done() -> Int { total - min(total, (try? engine.store.pendingCount()) ?? total) }
        phase = .uploading(done: done(), total: total)
        let events = await engine.events()
        let progress = Task { [weak self] in
            for await event in events {
                guard case .pushed = event else { continue }
                await MainActor.run {
                    guard let self, case .uploading = self.phase else { return }
                    self.phase = .uploading(done: done(), total: total)
                }
            }
        }
        defer { progress.cancel() }
        var failures = 0
        while !Task.isCancelled {
            do {
                try await engine.sync()
                if (try engine.store.pendingCount()) == 0 {
                    phase = .finished(total: total)
                    return phase
                }
                // Something is still queued (another write came in meanwhile): go round again.
                failures = 0
            } catch let error as any UserFacingError {
                failures += 1
                phase = .retrying(done: done(), total: total, reason: error.userMessage)
                if let maxAttempts, failures >= maxAttempts { return phase }
                try? await Task.sleep(for: backoff.delay(afterFailures: failures))
                if !Task.isCancelled { phase = .uploading(done: done(), total: total) }
            }
        }
        return phase
    }
}
