import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// Delivers mail to an SMTP server (a relay or a submission service), one connection per message.
///
/// A connection per message keeps the mailer stateless: password-reset mail is rare, and a pooled
/// connection would need keep-alive and reconnect logic for no benefit.
public struct SMTPMailer: Mailer {
    public let configuration: SMTPConfiguration
    public let heloName: String
    let logger: Logger
    let clock: Clock
    let ids: IdentifierSource

    public init(
        configuration: SMTPConfiguration, heloName: String = "localhost", logger: Logger, clock: Clock = .system,
        ids: IdentifierSource = .system
    ) {
        self.configuration = configuration
        self.heloName = heloName
        self.logger = logger
        self.clock = clock
        self.ids = ids
    }

    public func send(_ message: MailMessage) async throws {
        // The name goes into the EHLO line; whitespace or a line break there would corrupt the command.
        guard !heloName.isEmpty,
            !heloName.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x21 })
        else {
            throw SMTPError.invalidConfiguration(
                "SMTP HELO name must be a single word (got \(String(reflecting: heloName)))")
        }
        let from = try SMTPMessageEncoding.validatedAddress(message.from, role: "sender")
        let to = try SMTPMessageEncoding.validatedAddress(message.to, role: "recipient")
        let messageID = "\(ids.text())@\(heloName)"
        let payload = SMTPMessageEncoding.dataPayload(message.rendered(date: clock.now(), messageID: messageID))

        var logger = self.logger
        logger[metadataKey: "smtp.server"] = "\(configuration.host):\(configuration.port)"

        // Implicit TLS needs its settings before connecting; STARTTLS builds them only if it is used, so
        // a plain relay never depends on the TLS setup (or the certificates file) working.
        let implicitTLS =
            configuration.security == .implicitTLS ? try SMTPTLS(configuration: configuration, step: "connect") : nil
        let channel = try await connect(implicitTLS: implicitTLS)
        try await channel.executeThenClose { inbound, outbound in
            var session = SMTPSession(
                channel: channel.channel,
                inbound: inbound.makeAsyncIterator(),
                outbound: outbound,
                configuration: configuration,
                heloName: heloName,
                logger: logger)
            try await session.deliver(from: from, to: to, payload: payload)
        }
        logger.info(
            "mail sent via SMTP",
            metadata: ["to": "\(message.to)", "subject": "\(message.subject)", "message_id": "\(messageID)"])
    }

    private func connect(implicitTLS: SMTPTLS?) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(TimeAmount(configuration.timeout))
        do {
            return try await bootstrap.connect(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(implicitTLS.makeHandler())
                    }
                    try channel.pipeline.syncOperations.addHandler(SMTPTLSBoundaryMarker())
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        } catch let error as CancellationError {
            throw error
        } catch ChannelError.connectTimeout {
            throw SMTPError(
                kind: .timeout, step: "connect",
                detail: "no connection to \(configuration.host):\(configuration.port) within \(configuration.timeout)")
        } catch {
            throw SMTPError(
                kind: .connection, step: "connect",
                detail: "cannot connect to \(configuration.host):\(configuration.port): \(error)")
        }
    }
}

/// The TLS settings shared by implicit TLS and STARTTLS.
struct SMTPTLS: Sendable {
    let context: NIOSSLContext
    /// nil for IP literals: SNI must not carry an address, and NIOSSL then checks the certificate
    /// against the peer's IP instead.
    let serverHostname: String?

    init(configuration: SMTPConfiguration, step: String) throws {
        var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        if let file = configuration.trustedCertificatesFile {
            do {
                tlsConfiguration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(file))
            } catch {
                throw SMTPError(
                    kind: .tls, step: step, detail: "cannot load trusted certificates from \(file): \(error)")
            }
        }
        do {
            context = try NIOSSLContext(configuration: tlsConfiguration)
        } catch {
            throw SMTPError(kind: .tls, step: step, detail: "cannot set up TLS: \(error)")
        }
        let isIPLiteral = (try? SocketAddress(ipAddress: configuration.host, port: 0)) != nil
        serverHostname = isIPLiteral ? nil : configuration.host
    }

    func makeHandler() throws -> NIOSSLClientHandler {
        try NIOSSLClientHandler(context: context, serverHostname: serverHostname)
    }
}

/// One SMTP conversation on an open connection. Lives inside a single task, so it needs no locking.
struct SMTPSession {
    let channel: any Channel
    var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    let configuration: SMTPConfiguration
    let heloName: String
    let logger: Logger

    private var parser = SMTPReplyParser()
    private var isEncrypted: Bool

    init(
        channel: any Channel,
        inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        configuration: SMTPConfiguration,
        heloName: String,
        logger: Logger
    ) {
        self.channel = channel
        self.inbound = inbound
        self.outbound = outbound
        self.configuration = configuration
        self.heloName = heloName
        self.logger = logger
        self.isEncrypted = configuration.security == .implicitTLS
    }

    mutating func deliver(from: String, to: String, payload: ByteBuffer) async throws {
        do {
            do {
                try await command(nil, step: "greeting", expecting: 220)
            } catch var error as SMTPError where error.kind == .tls {
                // With implicit TLS the handshake runs while we wait for the greeting.
                error.step = "TLS handshake"
                throw error
            }
            var extensions = try await hello()
            try await negotiateTLS(&extensions)
            try await authenticate(extensions)
            try await command("MAIL FROM:<\(from)>", step: "MAIL FROM", expecting: 250)
            // 251 means the server will forward to a different address: still accepted.
            try await command("RCPT TO:<\(to)>", step: "RCPT TO", expecting: 250, 251)
            try await command("DATA", step: "DATA", expecting: 354)
            try await command(.bytes(payload), step: "message data", expecting: 250)
        } catch let error as SMTPError
            where error.kind == .unexpectedReply || error.kind == .startTLSUnavailable
            || error.kind == .authenticationUnavailable
        {
            // The server is still in a sane state, so say goodbye instead of just hanging up.
            await quitQuietly()
            throw error
        }
        // The mail is accepted at this point; a failed QUIT must not make the caller retry and send it twice.
        await quitQuietly()
    }

    // MARK: - Steps

    private mutating func hello() async throws -> SMTPExtensions {
        let reply = try await exchange("EHLO \(heloName)", step: "EHLO")
        if reply.code == 250 { return SMTPExtensions(ehloReply: reply) }
        // Only a server that does not know EHLO at all deserves the HELO fallback; anything else is a refusal.
        guard [500, 502].contains(reply.code) else { throw unexpected(reply, step: "EHLO") }
        try await command("HELO \(heloName)", step: "HELO", expecting: 250)
        return SMTPExtensions()
    }

    private mutating func negotiateTLS(_ extensions: inout SMTPExtensions) async throws {
        switch configuration.security {
        case .implicitTLS:
            return
        case .startTLSRequired where !extensions.offersStartTLS:
            throw SMTPError(
                kind: .startTLSUnavailable, step: "STARTTLS",
                detail: "the server does not offer STARTTLS, which the configuration requires")
        case .startTLSIfOffered where !extensions.offersStartTLS:
            logger.debug("SMTP server does not offer STARTTLS; continuing without TLS")
            return
        case .startTLSIfOffered, .startTLSRequired:
            break
        }
        let tls = try SMTPTLS(configuration: configuration, step: "STARTTLS")
        try await command("STARTTLS", step: "STARTTLS", expecting: 220)
        // Bytes after the 220 came in plain text but would be taken as replies sent through TLS: a man
        // in the middle could inject replies that way (CVE-2011-0411 and kin). This catches those that
        // came with the 220; skipPlaintextUpToTLS catches those read separately.
        guard parser.unconsumedByteCount == 0 else {
            throw SMTPError(
                kind: .protocolViolation, step: "STARTTLS",
                detail: "server sent unencrypted data after its STARTTLS reply")
        }
        let channel = self.channel
        try await channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            // At the front, so every byte the other handlers see or send passes through TLS.
            try pipeline.addHandler(tls.makeHandler(), position: .first)
            // In the same event-loop turn, so no read can fall between the two.
            try pipeline.handler(type: SMTPTLSBoundaryMarker.self).markBoundary()
        }.get()
        try await skipPlaintextUpToTLS()
        isEncrypted = true
        // RFC 3207: everything learned before the upgrade is void, and the server may now offer more (AUTH).
        let reply: SMTPReply
        do {
            reply = try await command("EHLO \(heloName)", step: "EHLO after STARTTLS", expecting: 250)
        } catch var error as SMTPError where error.kind == .tls {
            // The handshake runs while the first encrypted command waits for its reply.
            error.step = "STARTTLS handshake"
            throw error
        }
        logger.debug("SMTP connection upgraded with STARTTLS")
        extensions = SMTPExtensions(ehloReply: reply)
    }

    private mutating func authenticate(_ extensions: SMTPExtensions) async throws {
        guard let username = configuration.username else { return }
        let password = configuration.password ?? ""
        let mechanisms = extensions.authMechanisms
        if !isEncrypted {
            logger.warning("sending SMTP credentials without TLS: the server did not offer STARTTLS")
        }
        if mechanisms.contains("PLAIN") {
            let token = Data("\0\(username)\0\(password)".utf8).base64EncodedString()
            try await command(
                .secret("AUTH PLAIN \(token)", shown: "AUTH PLAIN <credentials>"), step: "AUTH", expecting: 235)
        } else if mechanisms.contains("LOGIN") {
            try await command("AUTH LOGIN", step: "AUTH", expecting: 334)
            let user = Data(username.utf8).base64EncodedString()
            try await command(.secret(user, shown: "<user name>"), step: "AUTH", expecting: 334)
            let pass = Data(password.utf8).base64EncodedString()
            try await command(.secret(pass, shown: "<password>"), step: "AUTH", expecting: 235)
        } else {
            let offered = mechanisms.isEmpty ? "none" : mechanisms.sorted().joined(separator: ", ")
            var detail = "credentials are configured but the server offers no supported AUTH mechanism "
            detail += "(PLAIN or LOGIN; offered: \(offered))"
            if !isEncrypted { detail += "; many servers offer AUTH only after STARTTLS" }
            throw SMTPError(kind: .authenticationUnavailable, step: "AUTH", detail: detail)
        }
        logger.debug("SMTP authentication succeeded", metadata: ["smtp.user": "\(username)"])
    }

    private mutating func quitQuietly() async {
        do {
            let reply = try await exchange("QUIT", step: "QUIT")
            if reply.code != 221 {
                logger.debug("SMTP QUIT got an unexpected reply", metadata: ["reply": "\(reply.code)"])
            }
        } catch {
            logger.debug("SMTP QUIT failed", metadata: ["error": "\(error)"])
        }
    }

    // MARK: - Wire

    enum Command: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
        case line(String)
        /// A line carrying credentials: `shown` is what may appear in logs.
        case secret(String, shown: String)
        case bytes(ByteBuffer)

        init(stringLiteral value: String) { self = .line(value) }
        init(stringInterpolation: DefaultStringInterpolation) {
            self = .line(String(stringInterpolation: stringInterpolation))
        }
    }

    /// Sends `command` (if any) and reads one reply, all within one `timeout`.
    private mutating func exchange(_ command: Command?, step: String) async throws -> SMTPReply {
        let deadline = startDeadline()
        do {
            if let command {
                do {
                    try await write(command)
                } catch {
                    // A write fails only once the channel is closing, and then the inbound side holds
                    // the reason (a TLS alert, a parting 421 reply); a bare "closed" would hide it.
                    logger.debug("SMTP write failed; reading the reason", metadata: ["error": "\(error)"])
                }
            }
            let reply = try await readReply(step: step)
            deadline.cancel()
            return reply
        } catch {
            throw await failure(error, deadline: deadline, step: step, waitingFor: "no reply")
        }
    }

    /// Reads up to SMTPTLSBoundaryMarker's empty buffer. Anything before it was read before TLS was
    /// in place, so it is plain text from whoever is on the path, not from the server we verify.
    private mutating func skipPlaintextUpToTLS() async throws {
        let step = "STARTTLS"
        let deadline = startDeadline()
        do {
            while true {
                guard let bytes = try await inbound.next() else {
                    try Task.checkCancellation()
                    throw SMTPError(kind: .connection, step: step, detail: "the server closed the connection")
                }
                if bytes.readableBytes == 0 { break }
                throw SMTPError(
                    kind: .protocolViolation, step: step,
                    detail: "server sent unencrypted data after its STARTTLS reply")
            }
            deadline.cancel()
        } catch {
            throw await failure(error, deadline: deadline, step: step, waitingFor: "TLS not in place")
        }
    }

    /// Closing the channel is the one way to interrupt a pending read from outside; `failure` turns
    /// the resulting end-of-stream into a timeout error.
    private func startDeadline() -> Scheduled<Void> {
        channel.eventLoop.scheduleTask(in: TimeAmount(configuration.timeout)) { [channel] in
            channel.close(promise: nil)
        }
    }

    private func failure(_ error: any Error, deadline: Scheduled<Void>, step: String, waitingFor what: String) async
        -> any Error
    {
        deadline.cancel()
        // A cancelled task fails its future; one that ran succeeds.
        if (try? await deadline.futureResult.get()) != nil {
            return SMTPError(kind: .timeout, step: step, detail: "\(what) within \(configuration.timeout)")
        }
        return Self.wrap(error, step: step)
    }

    private func write(_ command: Command) async throws {
        var buffer: ByteBuffer
        switch command {
        case .line(let line):
            logger.trace("SMTP >", metadata: ["line": "\(line)"])
            buffer = ByteBuffer(string: line)
            buffer.writeStaticString("\r\n")
        case .secret(let line, let shown):
            logger.trace("SMTP >", metadata: ["line": "\(shown)"])
            buffer = ByteBuffer(string: line)
            buffer.writeStaticString("\r\n")
        case .bytes(let bytes):
            logger.trace("SMTP >", metadata: ["bytes": "\(bytes.readableBytes)"])
            buffer = bytes
        }
        try await outbound.write(buffer)
    }

    private mutating func readReply(step: String) async throws -> SMTPReply {
        while true {
            if let reply = try parser.nextReply() {
                logger.trace("SMTP <", metadata: ["code": "\(reply.code)", "text": "\(reply.text)"])
                return reply
            }
            guard let bytes = try await inbound.next() else {
                try Task.checkCancellation()
                throw SMTPError(kind: .connection, step: step, detail: "the server closed the connection")
            }
            parser.append(bytes)
        }
    }

    @discardableResult
    private mutating func command(_ command: Command?, step: String, expecting codes: Int...) async throws -> SMTPReply
    {
        let reply = try await exchange(command, step: step)
        guard codes.contains(reply.code) else { throw unexpected(reply, step: step) }
        return reply
    }

    private func unexpected(_ reply: SMTPReply, step: String) -> SMTPError {
        SMTPError(
            kind: .unexpectedReply, step: step, replyCode: reply.code, replyText: reply.text, detail: "")
    }

    private static func wrap(_ error: any Error, step: String) -> any Error {
        switch error {
        case let error as SMTPError:
            var error = error
            if error.step == nil { error.step = step }
            return error
        case is CancellationError:
            return error
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            var detail = "\(error)"
            if detail.contains("CERTIFICATE_VERIFY_FAILED") {
                detail += " (the server's certificate is not trusted or does not match the host name; "
                detail += "a private CA can be trusted with trustedCertificatesFile)"
            }
            return SMTPError(kind: .tls, step: step, detail: detail)
        default:
            return SMTPError(kind: .connection, step: step, detail: "connection failed: \(error)")
        }
    }
}

/// Puts an empty buffer into the inbound byte stream (a socket read is never empty) at the moment
/// STARTTLS inserts the TLS handler, so the session can tell bytes read in plain text from bytes
/// read through TLS. Matching NIOTLS's handshake event would need a dependency KithServer lacks.
final class SMTPTLSBoundaryMarker: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Call on the event loop.
    func markBoundary() {
        guard let context else { return }
        context.fireChannelRead(Self.wrapInboundOut(ByteBuffer()))
        context.fireChannelReadComplete()
    }
}
