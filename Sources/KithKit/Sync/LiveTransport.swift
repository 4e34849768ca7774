import Foundation

/// Opens the live socket (`GET /v1/live`). Apple platforms use URLSession's WebSocket
/// (`URLSessionLiveTransport`); Linux's URLSession has none, so programs there pass the SwiftNIO one
/// from `KithKitNIO`. Without a live transport the sync engine polls on its timer instead.
public protocol LiveTransport: Sendable {
    /// Connects to `url`, sending `token` as `Authorization: Bearer`, and yields each text frame the
    /// server sends. The stream finishes when the server closes the socket and throws when the
    /// connection fails; cancelling the consuming task closes the socket.
    func connect(to url: URL, token: String) -> AsyncThrowingStream<String, any Error>
}
