import Foundation
import HummingbirdWebSocket
import KithCore
import Logging
import NIOWebSocket
import ServiceLifecycle

/// One live socket, from authentication to close. Everything that can happen to it (a client
/// message, a nudge, a deadline, server shutdown) arrives as one stream of events handled in
/// order by one loop, so writes never interleave and the state needs no lock.
final class LiveSocket {
    enum Event: Sendable {
        case received(WebSocketMessage)
        case clientClosed
        /// The device broke the WebSocket protocol (an oversized or malformed message).
        case readFailed(any Error)
        case changed(ScopeChange)
        /// A phase's time is up (what that means depends on the phase); numbered so that one
        /// replaced while it fired is recognised and ignored.
        case deadline(Int)
        case shutdown
    }

    private enum Phase {
        /// No token yet; the deadline is the auth timeout.
        case awaitingAuth
        case ready
        /// An error was sent; the device should close. The deadline is when the server closes instead.
        case refused
        /// The close frame was sent; the deadline is when the device's answer is no longer awaited.
        case closing
    }

    /// The largest message read from a device; the only one it needs to send (auth) is far smaller.
    static let maxMessageBytes = 16 * 1024
    /// After sending a close frame, how long the device has to answer it before the socket is dropped.
    static let closeAnswerTimeout = Duration.seconds(5)
    /// After an error, how long the device has to close before the server does. Closing at once would
    /// half-close the connection right behind the error; SwiftNIO's client, when that end of input
    /// arrives while it is still processing the upgrade answer, drops the bytes with it (the error)
    /// and never sees the end. Two seconds leave any client time to finish the upgrade.
    static let refusalCloseDelay = Duration.seconds(2)

    private static let authFirst =
        #"The first message must be {"type":"auth","token":"…"} (or send the token as "Authorization: Bearer")."#
    private static let notUnderstood =
        #"Live socket messages are JSON text such as {"type":"auth","token":"…"}; this one was ignored."#

    private let accounts: AccountService
    private let rules: SyncRules
    private let hub: LiveHub
    private let settings: LiveSettings
    private let notices: NoticeFeed
    private let outbound: WebSocketOutboundWriter
    private let events: AsyncStream<Event>
    private let sink: AsyncStream<Event>.Continuation
    private let logger: Logger
    private var phase = Phase.awaitingAuth
    private var subscription: LiveHub.Subscription?
    private var deadline: Task<Void, Never>?
    private var deadlineNumber = 0
    private var protocolViolation: (any Error)?
    /// The signed-in user, once authenticated, and the scopes the socket follows.
    private var userID: String?
    private var followed: Set<String> = []
    /// The seq of the last notice sent (see `sendNotices`).
    private var noticesSent: Int64 = 0

    init(
        accounts: AccountService, rules: SyncRules, hub: LiveHub, settings: LiveSettings, notices: NoticeFeed,
        outbound: WebSocketOutboundWriter, logger: Logger
    ) {
        self.notices = notices
        self.accounts = accounts
        self.rules = rules
        self.hub = hub
        self.settings = settings
        self.outbound = outbound
        self.logger = logger
        (events, sink) = AsyncStream.makeStream(of: Event.self)
    }

    /// Runs the socket until the device closes it or the server does. `authorization` is the upgrade
    /// request's `Authorization` header; else `webSession`, the web app's session cookie from a page
    /// of this server; without either the first message must carry the token. Throws the device's
    /// protocol violation, so the library closes with its code (e.g. 1009, too big).
    func run(authorization: String?, webSession: String? = nil, inbound: WebSocketInboundStream) async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [sink] in await Self.read(inbound, into: sink) }
            await withGracefulShutdownHandler {
                if let authorization {
                    await authenticate(token: BearerAuthMiddleware.bearerToken(header: authorization))
                } else if let webSession {
                    await authenticate(token: webSession, kinds: [.web])
                } else {
                    startDeadline(settings.authTimeout)
                }
                for await event in events {
                    guard await handle(event) else { break }
                }
            } onGracefulShutdown: { [sink] in
                sink.yield(.shutdown)
            }
            // The reader may still wait for a device that never answered the close frame.
            group.cancelAll()
        }
        deadline?.cancel()
        if let subscription { hub.unsubscribe(subscription) }
        sink.finish()
        if let protocolViolation { throw protocolViolation }
    }

    /// Handles one event; false once the socket is done.
    private func handle(_ event: Event) async -> Bool {
        if case .deadline(let number) = event, number != deadlineNumber { return true }
        switch (event, phase) {
        case (.clientClosed, _), (.deadline, .closing):
            return false
        case (.readFailed(let error), _):
            protocolViolation = error
            return false
        case (.shutdown, _):
            await close(.goingAway)
        case (.deadline, .refused):
            await close(.policyViolation)
        case (.received(let message), .awaitingAuth):
            guard case .text(let text) = message, let auth = LiveMessage(text: text), auth.type == .auth,
                let token = auth.token, !token.isEmpty
            else {
                await refuse(.unauthorized, Self.authFirst)
                return true
            }
            await authenticate(token: token)
        case (.received(let message), .ready):
            // Devices have nothing to say after auth; anything readable is ignored, anything else
            // is answered so a buggy client learns why, and the socket stays open.
            if case .text(let text) = message, LiveMessage(text: text) != nil { return true }
            await send(.error(code: ErrorCode.badRequest.rawValue, message: Self.notUnderstood))
        case (.deadline, .awaitingAuth):
            await refuse(.unauthorized, "No token arrived within \(settings.authTimeout); the socket is closed.")
        case (.changed(let change), .ready):
            if let userID, change.scope == InboxScope.of(userID) {
                await sendNotices()
                return true
            }
            // A nudge of the user's own scope may mean they joined or left a family.
            if change.scope == ownScope { await followScopes() }
            await send(.changed(scope: change.scope, seq: change.seq))
        case (.received, .refused), (.received, .closing), (.deadline, .ready), (.changed, _):
            break
        }
        return true
    }

    /// Checks `token` (nil: the header was not `Bearer <token>`) and, when it is good, subscribes the
    /// socket before saying ready, so every change committed after `ready` reaches it.
    private func authenticate(token: String?, kinds: Set<SessionKind> = [.app]) async {
        guard let token else {
            await refuse(.unauthorized, "The Authorization header must be \"Bearer <token>\".")
            return
        }
        let user: AuthenticatedUser
        let scopes: [String]
        do {
            user = try await accounts.authenticate(token: token, allowing: kinds)
            scopes = try await rules.readableScopes(userID: user.id.uuidString.lowercased())
        } catch let error as AppError {
            await refuse(error.detail)
            return
        } catch {
            logger.error("Live socket: checking a token failed", metadata: ["error": "\(String(reflecting: error))"])
            await refuse(.internalError, "The server could not check the token. Try again.")
            return
        }
        deadline?.cancel()
        let userID = user.id.uuidString.lowercased()
        self.userID = userID
        // Notices delivered from now on are sent; older ones are in the inbox.
        noticesSent = (try? await notices.latestSeq(of: userID)) ?? 0
        follow(scopes)
        phase = .ready
        await send(.ready)
    }

    private var ownScope: String? { userID.map { "user:" + $0 } }

    private func follow(_ scopes: [String]) {
        if let subscription { hub.unsubscribe(subscription) }
        followed = Set(scopes)
        let inbox = userID.map { [InboxScope.of($0)] } ?? []
        subscription = hub.subscribe(scopes: scopes + inbox) { [sink] change in sink.yield(.changed(change)) }
    }

    /// Sends the notices delivered since the last one sent, oldest first.
    private func sendNotices() async {
        guard let userID, let fresh = try? await notices.delivered(to: userID, after: noticesSent) else { return }
        for notice in fresh {
            await send(.notice(notice))
            noticesSent = max(noticesSent, notice.seq)
        }
    }

    /// Reads the user's scopes again and follows the ones that changed (a family joined or left).
    private func followScopes() async {
        guard let userID, let scopes = try? await rules.readableScopes(userID: userID), Set(scopes) != followed else { return }
        follow(scopes)
    }

    private func refuse(_ code: ErrorCode, _ message: String) async {
        await refuse(APIErrorDetail(code, message))
    }

    /// Says why in an error message; the socket closes when the device closes it or, a little later,
    /// the server does (1008: the device broke the rules of the socket).
    private func refuse(_ detail: APIErrorDetail) async {
        await send(.error(code: detail.code, message: detail.message))
        guard phase != .closing else { return }
        phase = .refused
        startDeadline(Self.refusalCloseDelay)
    }

    private func send(_ message: LiveMessage) async {
        guard phase != .closing else { return }
        do {
            try await outbound.write(.text(message.text))
        } catch {
            // The connection is going away under us; wait for the reader to notice.
            await close(.goingAway)
        }
    }

    /// Sends the close frame and waits (boundedly) for the device's answer, which ends the reader.
    private func close(_ code: WebSocketErrorCode) async {
        guard phase != .closing else { return }
        phase = .closing
        try? await outbound.close(code, reason: nil)
        startDeadline(Self.closeAnswerTimeout)
    }

    /// Replaces the current deadline: `.deadline` arrives after `duration` unless another replaces it.
    private func startDeadline(_ duration: Duration) {
        deadline?.cancel()
        deadlineNumber += 1
        deadline = Task { [sink, deadlineNumber] in
            guard (try? await Task.sleep(for: duration)) != nil else { return }
            sink.yield(.deadline(deadlineNumber))
        }
    }

    /// Forwards the device's messages. Pings, the close handshake and broken frames are dealt with
    /// by the WebSocket library underneath; what surfaces here is an oversized or malformed message.
    private static func read(_ inbound: WebSocketInboundStream, into sink: AsyncStream<Event>.Continuation) async {
        do {
            for try await message in inbound.messages(maxSize: maxMessageBytes) { sink.yield(.received(message)) }
            sink.yield(.clientClosed)
        } catch {
            sink.yield(.readFailed(error))
        }
    }
}
