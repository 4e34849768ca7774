import Foundation
import KithCore
import Logging
import NIOCore
import NIOWebSocket

/// One live socket (`GET /v1/live`, docs/sync.md), from authentication to close, as a handler on
/// the connection's own event loop: frames are read and written there, nudges from the hub hop
/// there, and only the few steps that read the database run as short tasks. No task waits for a
/// socket while it is idle: an open socket costs its channel and this object, so 10,000 of them
/// fit in a few dozen MiB (a task per socket held about 30 KiB of suspended frames).
///
/// Everything here runs on the channel's event loop, so the state needs no lock.
final class LiveSocket: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private enum Phase {
        /// No token yet; the deadline is the auth timeout.
        case awaitingAuth
        /// A token is being checked.
        case authenticating
        case ready
        /// An error was sent; the device should close. The deadline is when the server closes instead.
        case refused
        /// The close frame was sent; the deadline is when the device's answer is no longer awaited.
        case closing
        case closed
    }

    /// The largest message read from a device; the only one it needs to send (auth) is far smaller.
    static let maxMessageBytes = 16 * 1024
    /// After sending a close frame, how long the device has to answer it before the socket is dropped.
    static let closeAnswerTimeout = TimeAmount.seconds(5)
    /// After an error, how long the device has to close before the server does. Closing at once would
    /// half-close the connection right behind the error; SwiftNIO's client, when that end of input
    /// arrives while it is still processing the upgrade answer, drops the bytes with it (the error)
    /// and never sees the end. Two seconds leave any client time to finish the upgrade.
    static let refusalCloseDelay = TimeAmount.seconds(2)
    /// A ping goes out this often; one still unanswered at the next closes the socket (a device
    /// that vanished without closing).
    static let pingPeriod = TimeAmount.seconds(30)

    private static let authFirst =
        #"The first message must be {"type":"auth","token":"…"} (or send the token as "Authorization: Bearer")."#
    private static let notUnderstood =
        #"Live socket messages are JSON text such as {"type":"auth","token":"…"}; this one was ignored."#

    private let services: LiveServices
    private let opening: LiveOpening
    private var context: ChannelHandlerContext?
    private var phase = Phase.awaitingAuth
    private var deadline: Scheduled<Void>?
    private var pinger: RepeatedTask?
    private var pingOutstanding = false
    private var registration: LiveSockets.Registration?
    private var subscription: LiveHub.Subscription?
    /// A message arriving in fragments: its opcode and bytes so far.
    private var partial: (opcode: WebSocketOpcode, bytes: ByteBuffer)?
    /// The signed-in user, once authenticated, and the scopes the socket follows.
    private var userID: String?
    private var followed: Set<String> = []
    /// The seq of the last notice sent.
    private var noticesSent: Int64 = 0
    private var inboxReads = OneReadAtATime()
    private var scopeReads = OneReadAtATime()

    init(services: LiveServices, opening: LiveOpening) {
        self.services = services
        self.opening = opening
    }

    // MARK: The channel

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loop = context.eventLoop
        registration = services.sockets.register { loop.execute { this.value.shutDown() } }
        pinger = loop.scheduleRepeatedTask(initialDelay: Self.pingPeriod, delay: Self.pingPeriod) { _ in
            this.value.ping()
        }
        if let authorization = opening.authorization {
            authenticate(token: BearerAuthMiddleware.bearerToken(header: authorization), kinds: [.app])
        } else if let webSession = opening.webSession {
            authenticate(token: webSession, kinds: [.web])
        } else {
            startDeadline(TimeAmount(services.settings.authTimeout))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
        self.context = nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        services.logger.debug("Live socket: \(error)")
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .ping:
            guard phase != .closed else { return }
            write(.pong, frame.unmaskedData, context)
        case .pong:
            pingOutstanding = false
        case .connectionClose:
            receivedClose(frame)
        case .text, .binary:
            guard partial == nil else { return violated(.protocolError) }
            if frame.fin {
                received(frame.opcode, frame.unmaskedData)
            } else {
                partial = (frame.opcode, frame.unmaskedData)
            }
        case .continuation:
            guard var message = partial else { return violated(.protocolError) }
            var data = frame.unmaskedData
            message.bytes.writeBuffer(&data)
            guard message.bytes.readableBytes <= Self.maxMessageBytes else { return violated(.messageTooLarge) }
            if frame.fin {
                partial = nil
                received(message.opcode, message.bytes)
            } else {
                partial = message
            }
        default:
            violated(.protocolError)
        }
    }

    /// The socket ended: nothing more is sent, timers stop, the hub forgets it.
    private func finish() {
        guard phase != .closed else { return }
        phase = .closed
        deadline?.cancel()
        pinger?.cancel()
        if let subscription { services.hub.unsubscribe(subscription) }
        subscription = nil
        if let registration { services.sockets.unregister(registration) }
        registration = nil
    }

    // MARK: What the device says

    private func received(_ opcode: WebSocketOpcode, _ bytes: ByteBuffer) {
        guard bytes.readableBytes <= Self.maxMessageBytes else { return violated(.messageTooLarge) }
        let text = opcode == .text ? String(buffer: bytes) : nil
        switch phase {
        case .awaitingAuth:
            guard let text, let auth = LiveMessage(text: text), auth.type == .auth, let token = auth.token,
                !token.isEmpty
            else { return refuse(APIErrorDetail(.unauthorized, Self.authFirst)) }
            authenticate(token: token, kinds: [.app])
        case .ready:
            // Devices have nothing to say after auth; anything readable is ignored, anything else
            // is answered so a buggy client learns why, and the socket stays open.
            if let text, LiveMessage(text: text) != nil { return }
            send(.error(code: ErrorCode.badRequest.rawValue, message: Self.notUnderstood))
        case .authenticating, .refused, .closing, .closed:
            break
        }
    }

    private func receivedClose(_ frame: WebSocketFrame) {
        guard let context else { return }
        if phase != .closing, phase != .closed {
            // The device closes: the close frame goes back with its code, then the connection ends.
            var data = frame.unmaskedData
            writeClose(data.readWebSocketErrorCode() ?? .normalClosure, context)
        }
        finish()
        context.close(promise: nil)
    }

    /// The device broke the WebSocket protocol (a frame out of place, a message too large).
    private func violated(_ code: WebSocketErrorCode) {
        partial = nil
        close(code)
    }

    // MARK: Authentication

    /// Checks `token` (nil: the header was not `Bearer <token>`) and, when it is good, subscribes the
    /// socket before saying ready, so every change committed after `ready` reaches it.
    private func authenticate(token: String?, kinds: Set<SessionKind>) {
        guard let token else {
            return refuse(APIErrorDetail(.unauthorized, "The Authorization header must be \"Bearer <token>\"."))
        }
        phase = .authenticating
        let services = services
        offLoop {
            do {
                let user = try await services.accounts.authenticate(token: token, allowing: kinds)
                let userID = user.id.lowercased
                let scopes = try await services.rules.memberships(of: user).map(\.scope)
                // Notices delivered from now on are sent; older ones are in the inbox.
                let latest = (try? await services.notices.latestSeq(of: userID)) ?? 0
                return .success((userID, scopes, latest))
            } catch let error as AppError {
                return .failure(error.detail)
            } catch {
                services.logger.error(
                    "Live socket: checking a token failed", metadata: ["error": "\(String(reflecting: error))"])
                return .failure(APIErrorDetail(.internalError, "The server could not check the token. Try again."))
            }
        } then: { (socket, checked: Result<(String, [String], Int64), APIErrorDetail>) in
            switch checked {
            case .success(let (userID, scopes, latest)):
                socket.authenticated(userID: userID, scopes: scopes, noticesSeen: latest)
            case .failure(let detail): socket.refuse(detail)
            }
        }
    }

    private func authenticated(userID: String, scopes: [String], noticesSeen: Int64) {
        guard phase == .authenticating else { return }
        deadline?.cancel()
        self.userID = userID
        noticesSent = noticesSeen
        follow(scopes)
        phase = .ready
        send(.ready)
    }

    private func follow(_ scopes: [String]) {
        guard let context else { return }
        if let subscription { services.hub.unsubscribe(subscription) }
        followed = Set(scopes)
        let ownNudges = userID.map { [InboxScope.of($0), MembershipScope.of($0)] } ?? []
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loop = context.eventLoop
        subscription = services.hub.subscribe(scopes: scopes + ownNudges) { change in
            loop.execute { this.value.changed(change) }
        }
    }

    // MARK: Nudges and notices

    private func changed(_ change: ScopeChange) {
        guard phase == .ready, let userID else { return }
        if change.scope == InboxScope.of(userID) { return readNotices() }
        // They joined or left a family (their own scope is nudged beside it, for their devices).
        if change.scope == MembershipScope.of(userID) { return readScopes() }
        send(.changed(scope: change.scope, seq: change.seq))
    }

    /// Reads the user's scopes again and follows the ones that changed (a family joined or left).
    private func readScopes() {
        guard let userID, scopeReads.start() else { return }
        let rules = services.rules
        offLoop {
            try? await rules.readableScopes(userID: userID)
        } then: { socket, scopes in
            socket.readScopes(found: scopes)
        }
    }

    private func readScopes(found scopes: [String]?) {
        let again = scopeReads.ended()
        guard phase == .ready else { return }
        if let scopes, Set(scopes) != followed { follow(scopes) }
        if again { readScopes() }
    }

    /// Sends the notices delivered since the last one sent, oldest first; one read at a time, so
    /// no notice goes out twice.
    private func readNotices() {
        guard let userID, inboxReads.start() else { return }
        let notices = services.notices
        let after = noticesSent
        offLoop {
            (try? await notices.delivered(to: userID, after: after)) ?? []
        } then: { socket, fresh in
            socket.send(notices: fresh)
        }
    }

    /// Runs `work` (a database read) as a task and hands its answer to `then` back on the loop.
    private func offLoop<Value: Sendable>(
        _ work: @escaping @Sendable () async -> Value, then finish: @escaping @Sendable (LiveSocket, Value) -> Void
    ) {
        guard let context else { return }
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loop = context.eventLoop
        Task {
            let value = await work()
            loop.execute { finish(this.value, value) }
        }
    }

    private func send(notices: [NoticeDTO]) {
        let again = inboxReads.ended()
        guard phase == .ready else { return }
        for notice in notices where notice.seq > noticesSent {
            send(.notice(notice))
            noticesSent = notice.seq
        }
        if again { readNotices() }
    }

    // MARK: Closing

    /// Says why in an error message; the socket closes when the device closes it or, a little later,
    /// the server does (1008: the device broke the rules of the socket).
    private func refuse(_ detail: APIErrorDetail) {
        guard phase != .closing, phase != .closed else { return }
        send(.error(code: detail.code, message: detail.message))
        phase = .refused
        startDeadline(Self.refusalCloseDelay)
    }

    /// Graceful shutdown of the server: the device is told it is going away.
    private func shutDown() { close(.goingAway) }

    private func ping() {
        guard let context, phase != .closing, phase != .closed else { return }
        if pingOutstanding { return close(.goingAway) }
        pingOutstanding = true
        write(.ping, context.channel.allocator.buffer(string: "kith"), context)
    }

    /// Sends the close frame and waits (boundedly) for the device's answer, which ends the socket.
    private func close(_ code: WebSocketErrorCode) {
        guard let context, phase != .closing, phase != .closed else { return }
        phase = .closing
        writeClose(code, context)
        startDeadline(Self.closeAnswerTimeout)
    }

    /// Replaces the current deadline: what it means depends on the phase when it comes.
    private func startDeadline(_ delay: TimeAmount) {
        guard let context else { return }
        deadline?.cancel()
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: delay) { this.value.deadlinePassed() }
    }

    private func deadlinePassed() {
        switch phase {
        case .awaitingAuth:
            refuse(
                APIErrorDetail(
                    .unauthorized, "No token arrived within \(services.settings.authTimeout); the socket is closed."))
        case .refused:
            close(.policyViolation)
        case .closing:
            finish()
            context?.close(promise: nil)
        case .authenticating, .ready, .closed:
            break
        }
    }

    // MARK: Writing

    private func send(_ message: LiveMessage) {
        guard let context, phase != .closing, phase != .closed else { return }
        write(.text, context.channel.allocator.buffer(string: message.text), context)
    }

    private func writeClose(_ code: WebSocketErrorCode, _ context: ChannelHandlerContext) {
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        write(.connectionClose, data, context)
    }

    /// One whole frame, sent at once.
    private func write(_ opcode: WebSocketOpcode, _ data: ByteBuffer, _ context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: data)), promise: nil)
    }
}

/// A database read a socket runs one at a time: asked for while one runs, it runs once more after
/// it, so no change is missed and no notice is read (and sent) twice.
private struct OneReadAtATime {
    private var running = false
    private var again = false

    /// Whether to start the read now; when one is running, another follows it instead.
    mutating func start() -> Bool {
        if running {
            again = true
            return false
        }
        running = true
        return true
    }

    /// The read ended; whether to start another.
    mutating func ended() -> Bool {
        defer { running = false; again = false }
        return again
    }
}

/// What a live socket needs of the server.
struct LiveServices: Sendable {
    let accounts: AccountService
    let rules: SyncRules
    let hub: LiveHub
    let settings: LiveSettings
    /// The inbox, for `notice` messages.
    let notices: NoticeFeed
    let sockets: LiveSockets
    let logger: Logger
}

/// What the device's upgrade request brought: its `Authorization` header, or the web app's
/// session cookie from a page of this server (`LiveController.webSession`), or neither (then the
/// first message must carry the token).
struct LiveOpening: Sendable {
    let authorization: String?
    let webSession: String?
}
