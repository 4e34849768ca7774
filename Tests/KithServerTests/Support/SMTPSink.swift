import Foundation
import KithTestSupport
import Logging
import NIOCore
import Testing

@testable import KithServer

// Test SMTP servers on loopback: Tests/support/smtp_sink.py (aiosmtpd), inline aiosmtpd variants,
// scripted fakes, run as child processes with the helpers in KithTestSupport.

/// Checked once: without python3 and aiosmtpd the end-to-end tests must fail loudly, never pass silently.
let smtpPythonProblem = PythonService.problem(importing: ["aiosmtpd"], install: "aiosmtpd")

struct SMTPSinkMeta: Decodable {
    var mailFrom: String
    var rcptTos: [String]
    var authenticatedUser: String?
    var tls: Bool
    /// Only from `SMTPSink.startCustom`.
    var authMechanism: String?

    enum CodingKeys: String, CodingKey {
        case mailFrom = "mail_from"
        case rcptTos = "rcpt_tos"
        case authenticatedUser = "authenticated_user"
        case tls
        case authMechanism = "auth_mechanism"
    }
}

struct SMTPDelivery {
    var eml: String
    var meta: SMTPSinkMeta

    /// The body as the sender wrote it: after the header block, with LF line ends and without the
    /// final line end that `MailMessage.rendered` always adds.
    var normalizedBody: String {
        let text = eml.replacingOccurrences(of: "\r\n", with: "\n")
        guard let split = text.range(of: "\n\n") else { return "" }
        var body = text[split.upperBound...]
        if body.hasSuffix("\n") { body = body.dropLast() }
        return String(body)
    }
}

/// A running smtp_sink.py (or the inline implicit-TLS variant) with its own mail directory. Its
/// fields never change after start, so tests may share it across tasks.
final class SMTPSink: @unchecked Sendable {
    let service: PythonService
    let maildir: URL
    var process: Process { service.process }
    var port: Int { service.port }

    private init(service: PythonService, maildir: URL) {
        self.service = service
        self.maildir = maildir
    }

    /// `port` 0 (the default) lets the sink pick a free one; a test that first needs the port closed
    /// (a mail server that comes up later) passes one from `closedLoopbackPort()`.
    static func start(
        user: String? = nil, password: String? = nil, certificate: SMTPTestCertificate? = nil, port: Int = 0
    ) async throws -> SMTPSink {
        let script = RepositoryPaths.testSupport.appendingPathComponent("smtp_sink.py")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw TestFailure("missing \(script.path): the SMTP tests need the sink script")
        }
        let maildir = try makeTemporaryDirectory("smtp-sink")
        // Port 0 lets the sink bind a free port itself and report it, so parallel tests never race for one.
        var arguments = [script.path, "--port", String(port), "--maildir", maildir.path]
        if let user, let password { arguments += ["--user", user, "--password", password] }
        if let certificate {
            arguments += ["--starttls", "--cert", certificate.certPath, "--key", certificate.keyPath]
        }
        return try await launch(arguments: arguments, maildir: maildir)
    }

    /// For what smtp_sink.py cannot do (TLS from the first byte, hiding AUTH PLAIN): a few lines of
    /// aiosmtpd writing the same <n>.eml/<n>.json files, plus the AUTH mechanism used.
    static func startCustom(
        implicitTLS certificate: SMTPTestCertificate? = nil, user: String? = nil, password: String? = nil,
        excludeMechanisms: [String] = []
    ) async throws -> SMTPSink {
        let maildir = try makeTemporaryDirectory("smtp-sink-custom")
        var options: [String: Any] = ["maildir": maildir.path, "exclude": excludeMechanisms]
        if let certificate { options["cert"] = certificate.certPath; options["key"] = certificate.keyPath }
        if let user, let password { options["user"] = user; options["password"] = password }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: options), as: UTF8.self)
        let script = """
            import asyncio, json, os, ssl, sys
            from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword
            options = json.loads(sys.argv[1])
            maildir = options["maildir"]
            def authenticator(server, session, envelope, mechanism, auth_data):
                if (options.get("user") is not None and isinstance(auth_data, LoginPassword)
                        and auth_data.login == options["user"].encode()
                        and auth_data.password == options["password"].encode()):
                    return AuthResult(success=True, auth_data={"user": options["user"], "mechanism": mechanism})
                return AuthResult(success=False, handled=False)
            class Handler:
                async def handle_DATA(self, server, session, envelope):
                    auth = session.auth_data if session.authenticated else None
                    meta = {"mail_from": envelope.mail_from, "rcpt_tos": list(envelope.rcpt_tos),
                            "authenticated_user": auth["user"] if auth else None,
                            "auth_mechanism": auth["mechanism"] if auth else None,
                            "tls": server.transport.get_extra_info("ssl_object") is not None}
                    with open(os.path.join(maildir, "1.eml"), "wb") as f:
                        f.write(envelope.original_content)
                    with open(os.path.join(maildir, "1.json"), "w") as f:
                        json.dump(meta, f)
                    return "250 OK"
            async def main():
                context = None
                if "cert" in options:
                    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                    context.load_cert_chain(options["cert"], options["key"])
                loop = asyncio.get_running_loop()
                def factory():
                    return SMTP(Handler(), hostname="localhost", loop=loop,
                                authenticator=authenticator, auth_required="user" in options,
                                auth_require_tls=False, auth_exclude_mechanism=options["exclude"])
                server = await loop.create_server(factory, "127.0.0.1", 0, ssl=context)
                print("READY", server.sockets[0].getsockname()[1], flush=True)
                await asyncio.Event().wait()
            asyncio.run(main())
            """
        return try await launch(arguments: ["-c", script, json], maildir: maildir)
    }

    /// A fake server that answers each command by its first word from `replies`, for behaviour no real
    /// server shows on demand. It records every line it receives in `transcript.txt`.
    static func startScripted(greeting: String, replies: [String: String], afterData: String = "250 queued\r\n")
        async throws -> SMTPSink
    {
        let maildir = try makeTemporaryDirectory("smtp-scripted")
        let options: [String: Any] = [
            "maildir": maildir.path, "greeting": greeting, "replies": replies, "after_data": afterData,
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: options), as: UTF8.self)
        let script = """
            import asyncio, json, os, sys
            options = json.loads(sys.argv[1])
            transcript = open(os.path.join(options["maildir"], "transcript.txt"), "a", buffering=1)
            async def handle(reader, writer):
                writer.write(options["greeting"].encode()); await writer.drain()
                while True:
                    line = await reader.readline()
                    if not line:
                        break
                    transcript.write(line.decode(errors="replace").rstrip("\\r\\n") + "\\n")
                    verb = line.split(b" ")[0].strip().upper().decode(errors="replace")
                    if verb == "DATA" and options["replies"].get("DATA", "").startswith("354"):
                        writer.write(options["replies"]["DATA"].encode()); await writer.drain()
                        while True:
                            data = await reader.readline()
                            transcript.write("D: " + data.decode(errors="replace").rstrip("\\r\\n") + "\\n")
                            if data in (b".\\r\\n", b""):
                                break
                        writer.write(options["after_data"].encode())
                    else:
                        writer.write(options["replies"].get(verb, "500 unknown command\\r\\n").encode())
                    await writer.drain()
                    if verb == "QUIT":
                        break
                writer.close()
            async def main():
                server = await asyncio.start_server(handle, "127.0.0.1", 0)
                print("READY", server.sockets[0].getsockname()[1], flush=True)
                await asyncio.Event().wait()
            asyncio.run(main())
            """
        return try await launch(arguments: ["-c", script, json], maildir: maildir)
    }

    /// What a scripted server received, one line each; DATA lines start with "D: ".
    func transcript() throws -> [String] {
        let text = try String(contentsOf: maildir.appendingPathComponent("transcript.txt"), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    private static func launch(arguments: [String], maildir: URL) async throws -> SMTPSink {
        if let problem = smtpPythonProblem {
            throw TestFailure(problem)
        }
        return SMTPSink(service: try await PythonService.start(arguments, name: "SMTP sink"), maildir: maildir)
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: maildir)
    }

    /// Every stored message, in order. The sink answers 250 only after writing both files, so a
    /// returned `send` means they are complete.
    func deliveries() throws -> [SMTPDelivery] {
        let names = try FileManager.default.contentsOfDirectory(atPath: maildir.path)
        let numbers = names.compactMap { name -> Int? in
            guard name.hasSuffix(".json"), !name.hasPrefix(".") else { return nil }
            return Int(name.dropLast(".json".count))
        }.sorted()
        return try numbers.map { n in
            let meta = try JSONDecoder().decode(
                SMTPSinkMeta.self, from: Data(contentsOf: maildir.appendingPathComponent("\(n).json")))
            let eml = try Data(contentsOf: maildir.appendingPathComponent("\(n).eml"))
            return SMTPDelivery(eml: String(decoding: eml, as: UTF8.self), meta: meta)
        }
    }
}

struct SMTPTestCertificate {
    let directory: URL
    var certPath: String { directory.appendingPathComponent("cert.pem").path }
    var keyPath: String { directory.appendingPathComponent("key.pem").path }

    static func make() async throws -> SMTPTestCertificate {
        let script = RepositoryPaths.testSupport.appendingPathComponent("make_test_cert.sh")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw TestFailure("missing \(script.path): the TLS tests need it")
        }
        let directory = try makeTemporaryDirectory("smtp-cert")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", script.path, directory.path]
        let stderr = Pipe()
        process.standardError = stderr
        try process.runWithDefaultSignalMask()
        // Key generation takes a while: wait for it off the cooperative threads.
        let errors = try await offCooperativePool {
            let errors = stderr.fileHandleForReading.readDataToEndOfFile()
            process.waitForExit(within: .seconds(30))
            return errors
        }
        guard process.terminationStatus == 0 else {
            throw TestFailure("make_test_cert.sh failed: \(String(decoding: errors, as: UTF8.self))")
        }
        return SMTPTestCertificate(directory: directory)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Collects every log line (at trace level, so the SMTP transcript is included) to prove no secret leaks.
final class SMTPCapturedLogs: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var messages: [String] { lock.withLock { lines } }

    func append(_ line: String) { lock.withLock { lines.append(line) } }

    func logger() -> Logger {
        var logger = Logger(label: "kith.test.smtp") { _ in SMTPCapturingLogHandler(sink: self) }
        logger.logLevel = .trace
        return logger
    }

    func expectNoSecrets(user: String, password: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let secrets = [
            password,
            Data("\0\(user)\0\(password)".utf8).base64EncodedString(),
            Data(password.utf8).base64EncodedString(),
        ]
        for line in messages {
            for secret in secrets where line.contains(secret) {
                Issue.record("log line leaks a secret: \(line)", sourceLocation: sourceLocation)
            }
        }
    }
}

struct SMTPCapturingLogHandler: LogHandler {
    let sink: SMTPCapturedLogs
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let rendered = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        sink.append("\(event.level) \(event.message) \(rendered)")
    }
}
