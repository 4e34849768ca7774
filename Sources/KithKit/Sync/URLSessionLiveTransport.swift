import Foundation

// Linux's URLSession has no WebSocket support (its libcurl is built without it): programs there
// use `NIOLiveTransport` from KithKitNIO. This one serves Apple platforms.
#if !canImport(FoundationNetworking)
    /// The live socket over URLSession's WebSocket task (Apple platforms).
    public struct URLSessionLiveTransport: LiveTransport {
        private let session: URLSession

        public init(session: URLSession = .shared) {
            self.session = session
        }

        public func connect(to url: URL, token: String) -> AsyncThrowingStream<String, any Error> {
            var request = URLRequest(url: url, timeoutInterval: 10)
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let socket = SocketBox(task: session.webSocketTask(with: request))
            return AsyncThrowingStream { continuation in
                socket.task.resume()
                let receiving = Task {
                    do {
                        while !Task.isCancelled {
                            switch try await socket.task.receive() {
                            case .string(let text): continuation.yield(text)
                            case .data(let data): continuation.yield(String(decoding: data, as: UTF8.self))
                            @unknown default: continue
                            }
                        }
                        continuation.finish()
                    } catch {
                        // A socket the server closed has a close code; one that never opened has none.
                        if socket.task.closeCode != .invalid {
                            continuation.finish()
                        } else {
                            continuation.finish(throwing: KithError.offline)
                        }
                    }
                }
                continuation.onTermination = { _ in
                    receiving.cancel()
                    socket.task.cancel(with: .goingAway, reason: nil)
                }
            }
        }
    }

    /// URLSessionWebSocketTask is thread-safe but not marked Sendable.
    private final class SocketBox: @unchecked Sendable {
        let task: URLSessionWebSocketTask
        init(task: URLSessionWebSocketTask) { self.task = task }
    }
#endif
