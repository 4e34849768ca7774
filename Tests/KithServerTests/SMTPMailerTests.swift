import Foundation
import KithTestSupport
import Logging
import NIOCore
import Testing

@testable import KithServer

// End-to-end tests run SMTPMailer against real servers on loopback ports: Tests/support/smtp_sink.py
// (aiosmtpd), inline aiosmtpd variants for what the sink cannot do, and a scripted fake for servers
// that misbehave on purpose. Unit tests cover URL parsing and the wire format.
@Suite("SMTPMailer")
struct SMTPMailerTests {
    private let logs = SMTPCapturedLogs()

    private func mailer(_ configuration: SMTPConfiguration) -> SMTPMailer {
        SMTPMailer(configuration: configuration, heloName: "kith.test", logger: logs.logger())
    }

    private func message(subject: String = "Reset your Kith password", body: String) -> MailMessage {
        MailMessage(from: "noreply@kith.test", to: "alice@example.com", subject: subject, textBody: body)
    }

    // MARK: - Against the sink

    @Test("plain SMTP with AUTH delivers the message")
    func plainSMTPWithAuth() async throws {
        // Special characters in the password exercise percent-decoding end to end.
        let password = "p@ss:w/rd%"
        let sink = try await SMTPSink.start(user: "alice", password: password)
        defer { sink.stop() }

        var configuration = try SMTPConfiguration.parse(url: "smtp://alice:p%40ss%3Aw%2Frd%25@127.0.0.1:\(sink.port)")
        configuration.timeout = .seconds(15)
        let body = "Hello Alice,\n\nopen https://kith.test/reset?token=abc123 to choose a new password."
        try await mailer(configuration).send(message(body: body))

        let deliveries = try sink.deliveries()
        try #require(deliveries.count == 1)
        let mail = deliveries[0]
        #expect(mail.meta.authenticatedUser == "alice")
        #expect(mail.meta.tls == false)
        #expect(mail.meta.mailFrom == "noreply@kith.test")
        #expect(mail.meta.rcptTos == ["alice@example.com"])
        #expect(mail.eml.contains("Subject: Reset your Kith password\r\n"))
        #expect(mail.eml.contains("To: alice@example.com\r\n"))
        #expect(mail.normalizedBody == body)
        #expect(mail.eml.contains("@kith.test>"), "Message-ID uses the HELO name")
        logs.expectNoSecrets(user: "alice", password: password)
    }

    @Test("STARTTLS with AUTH and a trusted self-signed certificate")
    func startTLSWithAuth() async throws {
        let certificate = try await SMTPTestCertificate.make()
        defer { certificate.remove() }
        let sink = try await SMTPSink.start(user: "alice", password: "wonder/land", certificate: certificate)
        defer { sink.stop() }

        // By name, so the certificate's host name (not only its IP) is checked.
        var configuration = try SMTPConfiguration.parse(
            url: "smtp+starttls://alice:wonder%2Fland@localhost:\(sink.port)")
        configuration.trustedCertificatesFile = certificate.certPath
        configuration.timeout = .seconds(15)
        try await mailer(configuration).send(message(body: "Over TLS."))

        let deliveries = try sink.deliveries()
        try #require(deliveries.count == 1)
        #expect(deliveries[0].meta.tls == true)
        #expect(deliveries[0].meta.authenticatedUser == "alice")
        #expect(deliveries[0].normalizedBody == "Over TLS.")
        logs.expectNoSecrets(user: "alice", password: "wonder/land")
    }

    @Test("STARTTLS if offered upgrades when the server offers it")
    func startTLSIfOfferedUpgrades() async throws {
        let certificate = try await SMTPTestCertificate.make()
        defer { certificate.remove() }
        let sink = try await SMTPSink.start(certificate: certificate)
        defer { sink.stop() }

        var configuration = SMTPConfiguration(host: "127.0.0.1", port: sink.port, security: .startTLSIfOffered)
        configuration.trustedCertificatesFile = certificate.certPath
        try await mailer(configuration).send(message(body: "Upgraded."))

        let deliveries = try sink.deliveries()
        try #require(deliveries.count == 1)
        #expect(deliveries[0].meta.tls == true)
        #expect(deliveries[0].meta.authenticatedUser == nil)
    }

    @Test("a wrong password fails with the server's 535")
    func wrongPassword() async throws {
        let sink = try await SMTPSink.start(user: "alice", password: "right")
        defer { sink.stop() }

        let configuration = try SMTPConfiguration.parse(url: "smtp://alice:wrong@127.0.0.1:\(sink.port)")
        let error = await #expect(throws: SMTPError.self) {
            try await mailer(configuration).send(message(body: "never sent\n"))
        }
        #expect(error?.kind == .unexpectedReply)
        #expect(error?.replyCode == 535)
        #expect(error?.step == "AUTH")
        #expect(error?.description.contains("535") == true)
        #expect(error?.description.contains("wrong") == false)
        #expect(try sink.deliveries().isEmpty)
        logs.expectNoSecrets(user: "alice", password: "wrong")
    }

    @Test("smtp+starttls refuses a server without STARTTLS and sends nothing")
    func startTLSRequiredButNotOffered() async throws {
        let sink = try await SMTPSink.start(user: "alice", password: "secret")
        defer { sink.stop() }

        let configuration = try SMTPConfiguration.parse(url: "smtp+starttls://alice:secret@127.0.0.1:\(sink.port)")
        let error = await #expect(throws: SMTPError.self) {
            try await mailer(configuration).send(message(body: "never sent\n"))
        }
        #expect(error?.kind == .startTLSUnavailable)
        #expect(try sink.deliveries().isEmpty)
        // Credentials must not have gone out in plain text either.
        logs.expectNoSecrets(user: "alice", password: "secret")
        #expect(!logs.messages.contains { $0.contains("SMTP >") && $0.contains("AUTH") })
    }

    @Test("an untrusted certificate fails the STARTTLS handshake")
    func untrustedCertificate() async throws {
        let certificate = try await SMTPTestCertificate.make()
        defer { certificate.remove() }
        let sink = try await SMTPSink.start(certificate: certificate)
        defer { sink.stop() }

        // No trustedCertificatesFile: the self-signed certificate is not in the system roots.
        let configuration = SMTPConfiguration(host: "localhost", port: sink.port, security: .startTLSRequired)
        let error = await #expect(throws: SMTPError.self) {
            try await mailer(configuration).send(message(body: "never sent\n"))
        }
        #expect(error?.kind == .tls)
        #expect(try sink.deliveries().isEmpty)
    }

    @Test("lines starting with a dot arrive intact")
    func dotStuffing() async throws {
        let sink = try await SMTPSink.start()
        defer { sink.stop() }

        let body = "first line\n.hidden line\n..two dots\n.\n.\n. spaced\nlast line"
        let configuration = SMTPConfiguration(host: "127.0.0.1", port: sink.port)
        try await mailer(configuration).send(message(body: body))

        let deliveries = try sink.deliveries()
        try #require(deliveries.count == 1)
        #expect(deliveries[0].normalizedBody == body)
        #expect(deliveries[0].meta.authenticatedUser == nil)
    }

    @Test("implicit TLS (smtps) delivers the message")
    func implicitTLS() async throws {
        let certificate = try await SMTPTestCertificate.make()
        defer { certificate.remove() }
        let sink = try await SMTPSink.startCustom(implicitTLS: certificate)
        defer { sink.stop() }

        var configuration = try SMTPConfiguration.parse(url: "smtps://127.0.0.1:\(sink.port)")
        configuration.trustedCertificatesFile = certificate.certPath
        try await mailer(configuration).send(message(body: "Implicit TLS."))

        let deliveries = try sink.deliveries()
        try #require(deliveries.count == 1)
        #expect(deliveries[0].meta.tls == true)
        #expect(deliveries[0].normalizedBody == "Implicit TLS.")
    }

    @Test("AUTH LOGIN is used when the server does not offer PLAIN")
    func authLoginFallback() async throws {
        let sink = try await SMTPSink.startCustom(user: "bob", password: "hunter2", excludeMechanisms: ["PLAIN"])
        defer { sink.stop() }

        let configuration = try SMTPConfiguration.parse(url: "smtp://bob:hunter2@127.0.0.1:\(sink.port)")
        try await mailer(configuration).send(message(body: "Via LOGIN."))

        let deliveries = try sink.deliveries()
        try #require(deliveries.count == 1)
        #expect(deliveries[0].meta.authenticatedUser == "bob")
        #expect(deliveries[0].meta.authMechanism == "LOGIN")
        #expect(deliveries[0].normalizedBody == "Via LOGIN.")
        logs.expectNoSecrets(user: "bob", password: "hunter2")
    }

    @Test("plain-text replies slipped in after the STARTTLS 220 are refused")
    func startTLSInjection() async throws {
        let sink = try await SMTPSink.startScripted(
            greeting: "220 fake ESMTP\r\n",
            replies: [
                "EHLO": "250-fake\r\n250 STARTTLS\r\n",
                // The second and third lines pose as the EHLO reply that should come through TLS.
                "STARTTLS": "220 go ahead\r\n250-fake\r\n250 AUTH PLAIN\r\n",
                "QUIT": "221 bye\r\n",
            ])
        defer { sink.stop() }

        let configuration = SMTPConfiguration(host: "127.0.0.1", port: sink.port, security: .startTLSRequired)
        let error = await #expect(throws: SMTPError.self) {
            try await mailer(configuration).send(message(body: "never sent\n"))
        }
        #expect(error?.kind == .protocolViolation)
        #expect(error?.step == "STARTTLS")
        #expect(try !sink.transcript().contains { $0.hasPrefix("MAIL") || $0.hasPrefix("AUTH") })
    }

    @Test("falls back to HELO and reads a multi-line greeting")
    func heloFallback() async throws {
        let sink = try await SMTPSink.startScripted(
            greeting: "220-fake.example.com first line\r\n220 second line\r\n",
            replies: [
                "EHLO": "502 5.5.1 EHLO not implemented\r\n",
                "HELO": "250 fake.example.com\r\n",
                "MAIL": "250 ok\r\n",
                "RCPT": "250 ok\r\n",
                "DATA": "354 go ahead\r\n",
                "QUIT": "221 bye\r\n",
            ])
        defer { sink.stop() }

        let configuration = SMTPConfiguration(host: "127.0.0.1", port: sink.port)
        try await mailer(configuration).send(message(body: "Hi.\n.dotted"))

        let transcript = try sink.transcript()
        #expect(
            Array(transcript.prefix(4)) == [
                "EHLO kith.test", "HELO kith.test", "MAIL FROM:<noreply@kith.test>", "RCPT TO:<alice@example.com>",
            ])
        #expect(transcript.contains("D: Subject: Reset your Kith password"))
        #expect(transcript.contains("D: ..dotted"), "dot-stuffed on the wire")
        #expect(Array(transcript.suffix(2)) == ["D: .", "QUIT"])
    }

    @Test("a rejected recipient fails with the server's code and still says QUIT")
    func rejectedRecipient() async throws {
        let sink = try await SMTPSink.startScripted(
            greeting: "220 fake ESMTP\r\n",
            replies: [
                "EHLO": "250 fake\r\n",
                "MAIL": "250 ok\r\n",
                "RCPT": "550-5.1.1 no such user\r\n550 5.1.1 try another\r\n",
                "QUIT": "221 bye\r\n",
            ])
        defer { sink.stop() }

        let configuration = SMTPConfiguration(host: "127.0.0.1", port: sink.port)
        let error = await #expect(throws: SMTPError.self) {
            try await mailer(configuration).send(message(body: "never sent\n"))
        }
        #expect(error?.kind == .unexpectedReply)
        #expect(error?.step == "RCPT TO")
        #expect(error?.replyCode == 550)
        #expect(error?.replyText == "5.1.1 no such user 5.1.1 try another")
        #expect(error?.description == "SMTP RCPT TO failed: server replied 550 5.1.1 no such user 5.1.1 try another")
        #expect(try sink.transcript().last == "QUIT")
        #expect(try !sink.transcript().contains("DATA"))
    }

    @Test("a server that never greets times out")
    func timeout() async throws {
        let listener = try SilentLoopbackListener()
        defer { listener.close() }

        var configuration = SMTPConfiguration(host: "127.0.0.1", port: listener.port)
        configuration.timeout = .milliseconds(300)
        let started = ContinuousClock.now
        let error = await #expect(throws: SMTPError.self) {
            try await mailer(configuration).send(message(body: "never sent\n"))
        }
        #expect(error?.kind == .timeout)
        #expect(error?.step == "greeting")
        // The configured 300 ms fired, not the 10 s default (with room for a loaded machine).
        #expect(ContinuousClock.now - started < SMTPConfiguration.defaultTimeout)
    }

    @Test("nothing listening is a connection error")
    func connectionRefused() async throws {
        // Bind and close to get a port that is very likely unused.
        let port = try closedLoopbackPort()
        let configuration = SMTPConfiguration(host: "127.0.0.1", port: port)
        let error = await #expect(throws: SMTPError.self) {
            try await mailer(configuration).send(message(body: "never sent\n"))
        }
        #expect(error?.kind == .connection)
        #expect(error?.step == "connect")
    }

    @Test("addresses that could inject SMTP commands are refused before connecting")
    func addressInjection() async throws {
        let configuration = SMTPConfiguration(host: "127.0.0.1", port: 1)
        let bad = MailMessage(
            from: "noreply@kith.test", to: "alice@example.com>\r\nRCPT TO:<mallory@example.com",
            subject: "x", textBody: "x")
        let error = await #expect(throws: SMTPError.self) { try await mailer(configuration).send(bad) }
        #expect(error?.kind == .invalidMessage)
    }

    // MARK: - URL parsing

    @Test("parse: smtp:// with percent-encoded credentials")
    func parseSMTP() throws {
        let c = try SMTPConfiguration.parse(url: "smtp://alice%40example.com:p%40ss%3Aw%2Frd@mail.example.com:2525")
        #expect(c.host == "mail.example.com")
        #expect(c.port == 2525)
        #expect(c.username == "alice@example.com")
        #expect(c.password == "p@ss:w/rd")
        #expect(c.security == .startTLSIfOffered)
        #expect(c.timeout == .seconds(10))
        #expect(c.trustedCertificatesFile == nil)
    }

    @Test("parse: default ports and security per scheme")
    func parseDefaults() throws {
        let plain = try SMTPConfiguration.parse(url: "smtp://mail.example.com")
        #expect(plain.port == 25)
        #expect(plain.security == .startTLSIfOffered)
        #expect(plain.username == nil && plain.password == nil)

        let startTLS = try SMTPConfiguration.parse(url: "smtp+starttls://u:p@mail.example.com")
        #expect(startTLS.port == 25)
        #expect(startTLS.security == .startTLSRequired)

        let implicit = try SMTPConfiguration.parse(url: "smtps://u:p@mail.example.com/")
        #expect(implicit.port == 465)
        #expect(implicit.security == .implicitTLS)
        #expect(implicit.username == "u" && implicit.password == "p")

        let withPort = try SMTPConfiguration.parse(url: "SMTPS://mail.example.com:10465")
        #expect(withPort.port == 10465)
        #expect(withPort.security == .implicitTLS)
    }

    @Test("parse: IPv6 literal and non-ASCII credentials")
    func parseIPv6AndUnicode() throws {
        let c = try SMTPConfiguration.parse(url: "smtp://j%C3%B6rg:caf%C3%A9%20au%20lait@[::1]:2525")
        #expect(c.host == "::1")
        #expect(c.port == 2525)
        #expect(c.username == "jörg")
        #expect(c.password == "café au lait")
    }

    @Test(
        "parse: bad URLs throw a descriptive error",
        arguments: [
            ("http://mail.example.com", "scheme"),
            ("mail.example.com:25", "smtp://"),
            ("smtp://", "host"),
            ("smtp://u:p@:25", "host"),
            ("smtp://mail.example.com:0", "port"),
            ("smtp://mail.example.com/inbox", "path"),
            ("smtp://mail.example.com?tls=1", "query"),
            ("smtp://alice@mail.example.com", "password"),
            ("smtp://:secret@mail.example.com", "user name"),
        ])
    func parseRejects(url: String, mentions: String) throws {
        let error = #expect(throws: SMTPError.self) { try SMTPConfiguration.parse(url: url) }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.description.contains(mentions) == true, "\(error?.description ?? "no error")")
    }

    @Test("parse errors and descriptions never show the password")
    func parseRedactsPassword() throws {
        let error = #expect(throws: SMTPError.self) {
            try SMTPConfiguration.parse(url: "smtp://alice:topsecret@mail.example.com/oops")
        }
        #expect(error?.description.contains("topsecret") == false)

        let c = try SMTPConfiguration.parse(url: "smtp+starttls://alice:topsecret@mail.example.com:587")
        #expect("\(c)" == "smtp+starttls://alice:<redacted>@mail.example.com:587")
        #expect(!String(reflecting: c).contains("topsecret"))
    }

    // MARK: - Wire format

    @Test("DATA payload is dot-stuffed, CRLF-normalized and terminated")
    func dataPayload() {
        func payload(_ text: String) -> String {
            let buffer = SMTPMessageEncoding.dataPayload(text)
            return String(decoding: buffer.readableBytesView, as: UTF8.self)
        }
        #expect(payload("a\r\n.b\r\n..c\r\n.\r\nd\r\n") == "a\r\n..b\r\n...c\r\n..\r\nd\r\n.\r\n")
        // A bare LF must not let ".\n" or "\n.\r\n" end the data early on a lenient server.
        #expect(payload("x\n.\ny\r.z") == "x\r\n..\r\ny\r\n..z\r\n.\r\n")
        #expect(payload(".first") == "..first\r\n.\r\n")
        #expect(payload("") == ".\r\n")
    }

    @Test("replies: multi-line, split across reads, and malformed")
    func replyParser() throws {
        var parser = SMTPReplyParser()
        parser.append(.init(string: "250-mail.example.com Hello\r\n250-AUTH=LOGIN\r\n25"))
        #expect(try parser.nextReply() == nil)
        parser.append(.init(string: "0-auth plain login\r\n250-STARTTLS\r\n250 8BITMIME\r\n220 ready\n"))
        let ehlo = try #require(try parser.nextReply())
        #expect(ehlo.code == 250)
        #expect(ehlo.lines == ["mail.example.com Hello", "AUTH=LOGIN", "auth plain login", "STARTTLS", "8BITMIME"])
        let extensions = SMTPExtensions(ehloReply: ehlo)
        #expect(extensions.offersStartTLS)
        #expect(extensions.authMechanisms == ["PLAIN", "LOGIN"])
        #expect(try parser.nextReply() == SMTPReply(code: 220, lines: ["ready"]))
        #expect(parser.unconsumedByteCount == 0)

        var bare = SMTPReplyParser()
        bare.append(.init(string: "221\r\n"))
        #expect(try bare.nextReply() == SMTPReply(code: 221, lines: [""]))

        var broken = SMTPReplyParser()
        broken.append(.init(string: "hello there\r\n"))
        #expect(throws: SMTPError.self) { try broken.nextReply() }

        var mixed = SMTPReplyParser()
        mixed.append(.init(string: "250-one\r\n251 two\r\n"))
        #expect(throws: SMTPError.self) { try mixed.nextReply() }

        var endless = SMTPReplyParser()
        endless.append(.init(string: String(repeating: "x", count: SMTPReplyParser.maximumLineLength + 1)))
        #expect(throws: SMTPError.self) { try endless.nextReply() }
    }
}

// MARK: - Test support
