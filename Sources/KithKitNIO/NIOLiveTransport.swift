import Foundation
import HTTPTypes
import HummingbirdWSClient
import KithKit
import Logging
import Synchronization

/// The live socket over SwiftNIO (`HummingbirdWSClient`), for platforms whose URLSession has no
/// WebSocket, such as Linux. Takes ws:// and wss:// URLs (http:// and https:// too, as the same);
/// wss:// verifies the server against the system's trust roots.
public struct NIOLiveTransport: LiveTransport {
    /// How long the connection and the WebSocket handshake may take before the stream throws
    /// `KithError.timeout`.
    public var connectTimeout: Duration

    /// The largest message accepted from the server; live messages are a few hundred bytes.
    static let maxMessageBytes = 1 << 20

    public init(connectTimeout: Duration = .seconds(10)) {
        self.connectTimeout = connectTimeout
    }

    /// Connects, sending `token` as `Authorization: Bearer`, and yields each text frame. The stream
    /// finishes when the server closes the socket and throws `KithError` when the connection fails
    /// (`.offline`, `.timeout`, or `.invalidResponse` when the server refuses the upgrade). Ending
    /// the iteration (or cancelling its task) closes the socket.
    public func connect(to url: URL, token: String) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: String.self)
        // The open socket's writer, nil until the handshake is done. Cancelling the client's task
        // does not end its wait for the next frame, so the socket stayed open until the server's
        // next ping, 30 s later: ending the stream closes the writer, which sends the close frame,
        // and the server ends the socket at once.
        let writer = Mutex<WebSocketOutboundWriter?>(nil)
        let client = WebSocketClient(
            url: url.absoluteString,
            configuration: .init(
                maxFrameSize: Self.maxMessageBytes, additionalHeaders: [.authorization: "Bearer \(token)"]),
            logger: Logger(label: "kith.live", factory: { _ in SwiftLogNoOpLogHandler() })
        ) { inbound, outbound, _ in
            writer.withLock { $0 = outbound }
            for try await message in inbound.messages(maxSize: Self.maxMessageBytes) {
                if case .text(let text) = message { continuation.yield(text) }
            }
        }
        let connection = Task {
            do {
                try await client.run()
                continuation.finish()
            } catch {
                continuation.finish(throwing: Self.kithError(error))
            }
        }
        // The client cannot be cancelled while it waits for the handshake answer, so the timeout
        // ends the stream itself; the abandoned attempt ends when the server answers or goes away,
        // and closes the socket at once if it ever opens (its task is cancelled).
        let timeout = connectTimeout
        let deadline = Task {
            guard (try? await Task.sleep(for: timeout)) != nil, writer.withLock({ $0 == nil }) else { return }
            continuation.finish(throwing: KithError.timeout)
            connection.cancel()
        }
        continuation.onTermination = { _ in
            if let outbound = writer.withLock({ $0 }) {
                Task { try? await outbound.close(.normalClosure, reason: nil) }
            }
            connection.cancel()
            deadline.cancel()
        }
        return stream
    }

    /// What went wrong, in the terms every KithKit transport uses.
    static func kithError(_ error: any Error) -> KithError {
        if let error = error as? KithError { return error }
        switch error as? WebSocketClientError {
        case .webSocketUpgradeFailed?:
            return .invalidResponse("the server did not accept the live socket (WebSocket upgrade refused)")
        case .serverProtocolError?, .serverSentMessageTooLarge?, .serverSentDataInconsistentWithMessage?:
            return .invalidResponse("the server broke the WebSocket protocol")
        default:
            // Refused or reset connections, DNS, TLS, an unusable URL: as URLSessionTransport reports them.
            return .offline
        }
    }
}
