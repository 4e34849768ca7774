import Foundation
import KithCore

/// Moves a `LocalStore`'s changes to the server and the server's changes into the store
/// (docs/sync.md, "Client engine"): push the outbox in batches, pull pages by cursor, listen on the
/// live socket for nudges. Started, it syncs on every local change, every nudge, every reconnect,
/// on a timer and on demand; failures are retried with capped exponential backoff and jitter.
public actor SyncEngine {
    public struct Configuration: Sendable {
        /// Within the server's limits (`SyncLimits`): at most 500 mutations and, with room to
        /// spare for the envelope, half the 1 MiB body per push.
        public var pushBatchSize = SyncLimits.mutationsPerPush
        public var pushBatchBytes = SyncLimits.largestBody / 2
        public var pullPageSize = SyncLimits.defaultPullPage
        /// How often to sync when nothing else wakes the engine, without and with a live socket.
        public var pollInterval: Duration = .seconds(30)
        public var livePollInterval: Duration = .seconds(300)
        public var backoff = Backoff()

        public init() {}
    }

    /// What one sync did.
    public struct Report: Sendable, Equatable {
        public var pushed = 0
        public var rejected: [SyncRejection] = []
        public var pulled = 0
        public var conflicts: [RecordConflict] = []
    }

    /// Things worth showing as they happen.
    public enum Event: Sendable, Equatable {
        /// A push batch was acknowledged; `remaining` changes are still queued (upload progress).
        case pushed(count: Int, remaining: Int)
        case rejected(SyncRejection)
        /// A pulled page changed these local records.
        case pulled([RecordChange])
        /// Another device changed what this one had changed and not yet sent.
        case conflict(RecordConflict)
        case liveConnected
        case liveDisconnected
        /// A notice reached this user's inbox (a reminder due, a child's completion…): show it.
        case notice(NoticeDTO)
    }

    public nonisolated let store: LocalStore
    let service: any SyncService
    let live: (any LiveTransport)?
    let configuration: Configuration

    public private(set) var status: SyncStatus = .idle
    private var statusObservers: [UUID: AsyncStream<SyncStatus>.Continuation] = [:]
    private var eventObservers: [UUID: AsyncStream<Event>.Continuation] = [:]
    private let gate = AsyncMutex()
    private let wake = WakeSignal()
    private var tasks: [Task<Void, Never>] = []
    private var failures = 0
    private var isLive = false

    public init(
        store: LocalStore, service: any SyncService, live: (any LiveTransport)? = nil,
        configuration: Configuration = Configuration()
    ) {
        self.store = store
        self.service = service
        self.live = live
        self.configuration = configuration
    }

    // MARK: Observing

    /// The current status, then every change of it.
    public func statusUpdates() -> AsyncStream<SyncStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: SyncStatus.self, bufferingPolicy: .bufferingNewest(16))
        let key = UUID()
        statusObservers[key] = continuation
        continuation.yield(status)
        continuation.onTermination = { [weak self] _ in Task { await self?.removeStatusObserver(key) } }
        return stream
    }

    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(256))
        let key = UUID()
        eventObservers[key] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.removeEventObserver(key) } }
        return stream
    }

    private func removeStatusObserver(_ key: UUID) { statusObservers[key] = nil }
    private func removeEventObserver(_ key: UUID) { eventObservers[key] = nil }

    private func publish(_ new: SyncStatus) {
        guard new != status else { return }
        status = new
        for observer in statusObservers.values { observer.yield(new) }
    }

    private func emit(_ event: Event) {
        for observer in eventObservers.values { observer.yield(event) }
    }

    // MARK: Running

    /// Syncs once now: pull, push everything queued, pull until the server has nothing more. Throws
    /// the failure (the status shows it too); queued changes stay queued.
    @discardableResult
    public func sync() async throws -> Report {
        try await gate.withLock { try await self.cycle() }
    }

    /// Keeps the store in sync until `stop()`: a loop that syncs and then waits for a reason to
    /// sync again, and (with a live transport) the live socket.
    public func start() {
        guard tasks.isEmpty else { return }
        tasks.append(Task { await self.runLoop() })
        tasks.append(Task { await self.watchOutbox() })
        if live != nil { tasks.append(Task { await self.runLive() }) }
    }

    public func stop() {
        for task in tasks { task.cancel() }
        tasks = []
        isLive = false
    }

    /// Retries at once, skipping the rest of a backoff wait ("Retry now").
    public func retryNow() async {
        await wake.fire()
    }

    private func runLoop() async {
        while !Task.isCancelled {
            var wait = isLive ? configuration.livePollInterval : configuration.pollInterval
            do {
                try await sync()
                failures = 0
            } catch {
                failures += 1
                wait = configuration.backoff.delay(afterFailures: failures)
            }
            await wake.wait(timeout: wait)
        }
    }

    /// A local write (a new outbox row) wakes the loop, whose sync then publishes the status.
    /// (Observed counts can arrive late, so they only ever wake the loop, never set the status.)
    private func watchOutbox() async {
        var last: Int?
        do {
            for try await count in store.observePendingCount() {
                if Task.isCancelled { return }
                if let last, count > last { await wake.fire() }
                last = count
            }
        } catch {
            // The store closed: nothing more to watch.
        }
    }

    /// Holds the live socket open, reconnecting with backoff. `ready` (a fresh connection) and
    /// every `changed` nudge wake the loop: a reconnect means an immediate retry.
    private func runLive() async {
        guard let live else { return }
        var liveFailures = 0
        while !Task.isCancelled {
            do {
                let endpoint = try await service.liveEndpoint()
                for try await text in live.connect(to: endpoint.url, token: endpoint.token) {
                    guard let message = LiveMessage(text: text) else { continue }
                    switch message.type {
                    case .ready:
                        liveFailures = 0
                        isLive = true
                        emit(.liveConnected)
                        await wake.fire()
                    case .changed:
                        await wake.fire()
                    case .notice:
                        if let notice = message.notice { emit(.notice(notice)) }
                    case .auth, .error:
                        break
                    }
                }
            } catch {
                // Reconnected below, after a backoff.
            }
            if isLive {
                isLive = false
                emit(.liveDisconnected)
            }
            if Task.isCancelled { return }
            liveFailures += 1
            try? await Task.sleep(for: configuration.backoff.delay(afterFailures: liveFailures))
        }
    }

    // MARK: One sync

    private func cycle() async throws -> Report {
        var report = Report()
        do {
            guard let userID = try await service.signedInUserID() else { throw KithError.notSignedIn }
            guard store.userScope == "user:\(userID.lowercased)" else {
                throw KithError.storage("this device's data belongs to another account; sign in to it to sync")
            }
            publish(.syncing(pending: try store.pendingCount()))
            // Pull first: other devices' changes meet this device's unsent ones here, where the merge
            // can say which way each conflict went; then push, then pull what
            // arrived meanwhile (usually just this push's own changes, already merged here).
            try await pullAll(into: &report)
            try await pushAll(into: &report)
            try await pullAll(into: &report)
            try store.markSynced()
            let pending = try store.pendingCount()
            publish(pending == 0 ? .idle : .syncing(pending: pending))
            // Changes made during the sync go out on the next round, which the outbox watch starts.
            return report
        } catch {
            let pending = (try? store.pendingCount()) ?? status.pending
            if (error as? any UserFacingError)?.kind == .unreachable {
                publish(.offline(pending: pending))
            } else {
                publish(.error(message: Self.message(error), pending: pending))
            }
            throw error
        }
    }

    /// Pushes the outbox batch after batch. The next batch is read while the server works on this
    /// one, and sent before this one's answer is stored: on a push of 10,000 the device and the
    /// server were taking turns. Batches still go out one at a time and in the order
    /// they were made, so the server applies them as it did. A batch the server answered only in
    /// part is followed by the oldest queued changes again, as before.
    private func pushAll(into report: inout Report) async throws {
        var batch = try nextBatch(after: nil)
        var answer = send(batch)
        var clockRebases = 0
        while let pending = answer {
            let sent = batch
            let readAhead = Result { try nextBatch(after: sent.lastSeq) }
            let response: PushResponse
            do {
                response = try await pending.value
            } catch {
                try? store.notePushFailure(sent.mutations, error: Self.message(error))
                throw error
            }
            let acknowledged = Set(response.results.map(\.mutationId))
            guard sent.mutations.contains(where: { acknowledged.contains($0.mutationId) }) else {
                throw KithError.invalidResponse("the server acknowledged none of the pushed changes")
            }
            // Changes refused for this device's clock are re-stamped when the answer is stored and
            // sent again from the oldest, so nothing read ahead with the old stamps goes out.
            let clockRefused = response.serverTime != nil && response.results.contains { $0.code == MutationResult.clockSkew }
            var following: OutboxBatch?
            if !clockRefused, sent.mutations.allSatisfy({ acknowledged.contains($0.mutationId) }),
                case .success(let read) = readAhead
            {
                following = read
            }
            answer = following.flatMap(send)
            let completion: PushCompletion
            do {
                completion = try store.complete(response)
            } catch {
                answer?.cancel()
                throw error
            }
            if completion.heldBack > 0 {
                clockRebases += 1
                // Re-stamped by the server's own time, a change is accepted: a server that still
                // refuses is not keeping time, and the changes wait here for the next sync.
                guard clockRebases <= 2 else { throw KithError.invalidResponse("the server keeps refusing this device's clock") }
            }
            let rejections = completion.rejections
            report.pushed += response.results.count - rejections.count - completion.heldBack
            report.rejected += rejections
            for rejection in rejections { emit(.rejected(rejection)) }
            let remaining = try store.pendingCount()
            emit(.pushed(count: response.results.count, remaining: remaining))
            publish(.syncing(pending: remaining))
            if let following {
                batch = following
            } else {
                // Read again from the oldest, now that this answer is stored (a read that failed
                // ahead fails here again, with nothing left on its way).
                batch = try nextBatch(after: nil)
                answer = send(batch)
            }
        }
    }

    private func nextBatch(after seq: Int64?) throws -> OutboxBatch {
        try store.pendingBatch(limit: configuration.pushBatchSize, maxBytes: configuration.pushBatchBytes, after: seq)
    }

    /// The batch's push on its way, or nil when the batch is empty.
    private func send(_ batch: OutboxBatch) -> Task<PushResponse, any Error>? {
        guard !batch.mutations.isEmpty else { return nil }
        let service = service
        let request = PushRequest(clientId: store.clientId, mutations: batch.mutations)
        return Task.detached { try await service.push(request) }
    }

    private static func message(_ error: any Error) -> String {
        (error as? any UserFacingError)?.userMessage ?? "\(error)"
    }

    /// Pulls page after page. The next page is asked for as soon as this one has arrived, and
    /// stored while the server reads it: on a first pull of 100,000 the device's storing and the
    /// server's reading were taking turns. The next page's cursor is this page's, so
    /// the pages are the ones a pull one at a time would get; a page is stored only after every
    /// page before it, and a failed store drops the page asked for after it.
    private func pullAll(into report: inout Report) async throws {
        let service = service
        let limit = configuration.pullPageSize
        var page = try await service.pull(cursor: try store.cursor(), limit: limit)
        while true {
            let cursor = page.cursor
            let next = page.hasMore ? Task.detached { try await service.pull(cursor: cursor, limit: limit) } : nil
            let applied: PulledPage
            do {
                applied = try store.apply(page)
            } catch {
                next?.cancel()
                throw error
            }
            report.pulled += applied.changes.count
            report.conflicts += applied.conflicts
            for conflict in applied.conflicts { emit(.conflict(conflict)) }
            if !applied.changes.isEmpty { emit(.pulled(applied.changes)) }
            guard let next else { return }
            page = try await next.value
        }
    }
}
