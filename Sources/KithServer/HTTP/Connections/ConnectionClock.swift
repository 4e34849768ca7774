import NIOCore

/// The deadlines of one connection, kept on its event loop. Two handlers feed it: bytes arriving
/// (`ConnectionActivityHandler`) and HTTP messages starting and ending (`HTTPRequestGuard`).
///
/// - From the first byte of a request (or the connection's opening) until the request's end has
///   arrived: `requestReadTimeout`.
/// - While the server works on an answer: no deadline (a handler's time is the handler's).
/// - With nothing to read and nothing to answer: `idleTimeout`.
/// - Once upgraded to a WebSocket: none here; the socket's own pings find a dead peer.
final class ConnectionClock {
    private let settings: ConnectionSettings
    /// When the request being read began; nil between requests.
    private var readingSince: NIODeadline?
    /// Requests read in full and not answered yet.
    private var unanswered = 0
    private var lastAnswerAt: NIODeadline
    private(set) var isWebSocket = false
    /// The next bytes to arrive begin a request (the connection is new, or the last request was
    /// read whole).
    private(set) var awaitingRequest = true
    private var check: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    /// What waits for the answers owed to be written (`whenNothingOwed`).
    private var onceAnswered: (() -> Void)?

    init(settings: ConnectionSettings) {
        self.settings = settings
        let now = NIODeadline.now()
        // A new connection is expected to send its request promptly.
        readingSince = now
        lastAnswerAt = now
    }

    /// Starts keeping time for the channel of `context`.
    func start(_ context: ChannelHandlerContext) {
        self.context = context
        schedule()
    }

    func stop() {
        check?.cancel()
        check = nil
        context = nil
        onceAnswered = nil
    }

    func bytesArrived() {
        awaitingRequest = false
        if readingSince == nil && !isWebSocket { readingSince = .now() }
        schedule()
    }

    /// The request being read arrived whole; `answered` when its answer went out before it did
    /// (a 405 or 401 that did not wait for the body), so none is owed.
    func requestRead(answered: Bool) {
        readingSince = nil
        if !answered { unanswered += 1 }
        awaitingRequest = true
        schedule()
    }

    /// An answer went out: to the oldest request read whole, or early, to the one being read.
    func answerWritten() {
        unanswered = max(0, unanswered - 1)
        lastAnswerAt = .now()
        schedule()
        if unanswered == 0, let action = onceAnswered {
            onceAnswered = nil
            action()
        }
    }

    /// Runs `action` once no answer is owed: now, or right after the last owed answer is written.
    func whenNothingOwed(_ action: @escaping () -> Void) {
        if unanswered == 0 {
            action()
        } else {
            onceAnswered = action
        }
    }

    func becameWebSocket() {
        isWebSocket = true
        stop()
    }

    /// When the connection must be closed if nothing changes; nil when no deadline runs.
    private var deadline: NIODeadline? {
        if isWebSocket { return nil }
        if let readingSince { return readingSince + TimeAmount(settings.requestReadTimeout) }
        if unanswered > 0 { return nil }
        return lastAnswerAt + TimeAmount(settings.idleTimeout)
    }

    private func schedule() {
        guard check == nil, let context, let deadline else { return }
        check = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline) { [weak self] in
            self?.fire()
        }
    }

    private func fire() {
        check = nil
        guard let context, let deadline else { return }
        if deadline <= .now() {
            context.close(promise: nil)
            stop()
        } else {
            schedule()
        }
    }
}
