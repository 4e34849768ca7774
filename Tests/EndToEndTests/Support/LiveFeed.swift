import Foundation
import KithCore
import KithKit
import KithKitNIO
import KithTestSupport
import Testing

/// A live socket opened with `NIOLiveTransport`, its stream consumed on a task of its own as an app
/// would; the test awaits what arrives, in order, with generous deadlines.
final class LiveFeed: Sendable {
    enum Event: Sendable, Equatable {
        case message(LiveMessage)
        /// A text frame that is not a live message.
        case text(String)
        /// The stream finished: the server closed the socket.
        case finished
        /// The stream threw.
        case failed(KithError)
    }

    static let deadline = Duration.seconds(30)

    private let inbox = Inbox<Event>()
    private let consumer: Task<Void, Never>

    init(_ url: URL, token: String, transport: NIOLiveTransport = NIOLiveTransport()) {
        let stream = transport.connect(to: url, token: token)
        let inbox = inbox
        consumer = Task {
            do {
                for try await text in stream {
                    await inbox.put(LiveMessage(text: text).map(Event.message) ?? .text(text))
                }
                await inbox.put(.finished)
            } catch let error as KithError {
                await inbox.put(.failed(error))
            } catch {
                await inbox.put(.failed(.invalidResponse("not a KithError: \(error)")))
            }
        }
    }

    /// The live socket URL of a server.
    static func url(of server: URL) -> URL {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false)!
        components.scheme = components.scheme == "https" ? "wss" : "ws"
        components.path = "/v1/live"
        return components.url!
    }

    /// The next thing that happened; a failure event naming the wait when nothing did in time.
    func next() async -> Event {
        await inbox.next(within: Self.deadline) ?? .failed(.invalidResponse("nothing arrived within \(Self.deadline)"))
    }

    /// Stops consuming, as an app leaving the screen would; the transport closes the socket.
    func cancel() { consumer.cancel() }
}
