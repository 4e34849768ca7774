import Foundation
import HTTPTypes
import HummingbirdWSClient
import KithCore
import KithTestSupport
import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import Testing

/// A device's live socket (`/v1/live`) on a test server, through a plain WebSocket client: what the
/// server sends, in order, awaited with generous deadlines (a loaded 2-core machine can take seconds).
final class LiveTestSocket: Sendable {
    enum Event: Sendable, Equatable {
        case message(LiveMessage)
        /// A text frame that is not a live message.
        case text(String)
        case binary
        /// The socket ended; the server's close code when it sent one, or the failure.
        case closed(String)
    }

    static let deadline = Duration.seconds(30)

    private let inbox = Inbox<Event>()
    private let writer = Mutex<WebSocketOutboundWriter?>(nil)
    private let connection = Mutex<Task<Void, Never>?>(nil)

    /// Opens the socket; `token` goes in the `Authorization` header (nil: none, so the first message
    /// must authenticate), `authorization` replaces the whole header when given.
    static func open(port: Int, token: String? = nil, authorization: String? = nil) async throws -> LiveTestSocket {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let authorization { headers[.authorization] = authorization }
        let socket = LiveTestSocket()
        let opened = Inbox<Bool>()
        var logger = Logger(label: "kith-test-live-socket")
        logger.logLevel = .critical
        let client = WebSocketClient(
            url: "ws://127.0.0.1:\(port)/v1/live", configuration: .init(additionalHeaders: headers), logger: logger
        ) { inbound, outbound, _ in
            socket.writer.withLock { $0 = outbound }
            await opened.put(true)
            for try await message in inbound.messages(maxSize: 1 << 20) {
                switch message {
                case .text(let text): await socket.inbox.put(LiveMessage(text: text).map(Event.message) ?? .text(text))
                case .binary: await socket.inbox.put(.binary)
                }
            }
        }
        let task = Task {
            do {
                let close = try await client.run()
                await socket.inbox.put(.closed(close.map { "\($0.closeCode)" } ?? "no close frame"))
            } catch {
                await socket.inbox.put(.closed("\(error)"))
            }
            await opened.put(false)
        }
        socket.connection.withLock { $0 = task }
        guard await opened.next(within: deadline) == true else {
            task.cancel()
            throw TestFailure("the live socket did not open: \(await socket.next())")
        }
        return socket
    }

    /// The next thing the server sent or did; a test failure when nothing happens before the deadline.
    func next() async -> Event {
        await inbox.next(within: Self.deadline) ?? .closed("nothing arrived within \(Self.deadline)")
    }

    /// The next live message; records a failure (and returns nil) for anything else.
    func nextMessage(sourceLocation: SourceLocation = #_sourceLocation) async -> LiveMessage? {
        let event = await next()
        guard case .message(let message) = event else {
            Issue.record("expected a live message, got \(event)", sourceLocation: sourceLocation)
            return nil
        }
        return message
    }

    /// The live messages that arrive within `window` (other events are dropped).
    func messages(for window: Duration) async -> [LiveMessage] {
        var messages: [LiveMessage] = []
        let end = ContinuousClock.now + window
        while ContinuousClock.now < end, let event = await inbox.next(within: end - ContinuousClock.now) {
            if case .message(let message) = event { messages.append(message) }
        }
        return messages
    }

    /// Waits until the socket has ended; records a failure if it is still open after the deadline.
    func expectClosed(sourceLocation: SourceLocation = #_sourceLocation) async {
        let limit = ContinuousClock.now + Self.deadline
        while ContinuousClock.now < limit {
            let event = await next()
            if case .closed(let reason) = event {
                #expect(!reason.hasPrefix("nothing arrived"), "the socket stayed open", sourceLocation: sourceLocation)
                return
            }
        }
        Issue.record("the socket stayed open", sourceLocation: sourceLocation)
    }

    func send(_ text: String) async throws { try await write(.text(text)) }

    func send(_ message: LiveMessage) async throws { try await write(.text(message.text)) }

    func write(_ frame: WebSocketOutboundWriter.OutboundFrame) async throws {
        guard let writer = writer.withLock({ $0 }) else { throw TestFailure("the live socket is not open") }
        try await writer.write(frame)
    }

    /// Closes from the device's side (as when the app goes away).
    func close() {
        connection.withLock { $0?.cancel() }
    }
}
