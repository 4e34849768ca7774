import Foundation
import NIOCore

/// One complete (possibly multi-line) server reply.
struct SMTPReply: Sendable, Equatable {
    var code: Int
    /// The text of each line, without the code and separator.
    var lines: [String]

    var text: String { lines.joined(separator: " ") }
}

/// Turns received bytes into replies. Kept apart from the connection so the grammar can be unit-tested.
struct SMTPReplyParser {
    // RFC 5321 limits a reply line to 512 octets; allow slack for chatty servers but not an unbounded buffer.
    static let maximumLineLength = 4096
    static let maximumLinesPerReply = 200

    private var buffer = ByteBuffer()
    private var pendingCode: Int?
    private var pendingLines: [String] = []

    /// Bytes received but not yet part of a returned reply.
    var unconsumedByteCount: Int { buffer.readableBytes }

    /// Whether a reply has started but not finished.
    var hasPartialReply: Bool { pendingCode != nil || buffer.readableBytes > 0 }

    mutating func append(_ bytes: ByteBuffer) {
        var bytes = bytes
        buffer.writeBuffer(&bytes)
    }

    /// The next complete reply, or nil if more bytes are needed.
    mutating func nextReply() throws -> SMTPReply? {
        while let line = try nextLine() {
            let parsed = try Self.parseLine(line)
            if let pendingCode, pendingCode != parsed.code {
                throw SMTPError(
                    kind: .protocolViolation,
                    detail: "reply lines carry different codes (\(pendingCode) then \(parsed.code))")
            }
            pendingCode = parsed.code
            pendingLines.append(parsed.text)
            if parsed.isLast {
                let reply = SMTPReply(code: parsed.code, lines: pendingLines)
                pendingCode = nil
                pendingLines = []
                return reply
            }
            if pendingLines.count >= Self.maximumLinesPerReply {
                throw SMTPError(
                    kind: .protocolViolation, detail: "reply has more than \(Self.maximumLinesPerReply) lines")
            }
        }
        return nil
    }

    private mutating func nextLine() throws -> String? {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            if view.count > Self.maximumLineLength {
                throw SMTPError(
                    kind: .protocolViolation, detail: "reply line longer than \(Self.maximumLineLength) bytes")
            }
            return nil
        }
        let lineLength = newline - view.startIndex
        guard lineLength <= Self.maximumLineLength else {
            throw SMTPError(kind: .protocolViolation, detail: "reply line longer than \(Self.maximumLineLength) bytes")
        }
        // Servers must send CRLF, but a bare LF is unambiguous and harmless to accept.
        var line = buffer.readString(length: lineLength) ?? ""
        buffer.moveReaderIndex(forwardBy: 1)
        if line.hasSuffix("\r") { line.removeLast() }
        buffer.discardReadBytes()
        return line
    }

    private static func parseLine(_ line: String) throws -> (code: Int, isLast: Bool, text: String) {
        let bytes = Array(line.utf8)
        guard bytes.count >= 3,
            bytes[0..<3].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let code = Int(String(decoding: bytes[0..<3], as: UTF8.self)),
            (200...599).contains(code)
        else {
            throw SMTPError(
                kind: .protocolViolation, detail: "malformed reply line \(String(reflecting: String(line.prefix(80))))")
        }
        if bytes.count == 3 { return (code, true, "") }
        switch bytes[3] {
        case UInt8(ascii: "-"): return (code, false, String(decoding: bytes[4...], as: UTF8.self))
        case UInt8(ascii: " "): return (code, true, String(decoding: bytes[4...], as: UTF8.self))
        default:
            throw SMTPError(
                kind: .protocolViolation, detail: "malformed reply line \(String(reflecting: String(line.prefix(80))))")
        }
    }
}

/// What the server announced in its EHLO reply.
struct SMTPExtensions: Sendable, Equatable {
    /// Upper-cased keyword -> its parameters as sent.
    var keywords: [String: [String]] = [:]

    init(keywords: [String: [String]] = [:]) {
        self.keywords = keywords
    }

    /// The first line of an EHLO reply is the server's greeting; each later line is `KEYWORD [params]`.
    init(ehloReply: SMTPReply) {
        for line in ehloReply.lines.dropFirst() {
            var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard !words.isEmpty else { continue }
            var keyword = words.removeFirst().uppercased()
            // Pre-RFC 4954 servers (and clients written against them) use `AUTH=PLAIN LOGIN`.
            if keyword.hasPrefix("AUTH=") {
                words.insert(String(keyword.dropFirst("AUTH=".count)), at: 0)
                keyword = "AUTH"
            }
            keywords[keyword, default: []].append(contentsOf: words)
        }
    }

    var offersStartTLS: Bool { keywords["STARTTLS"] != nil }

    var authMechanisms: Set<String> {
        Set((keywords["AUTH"] ?? []).map { $0.uppercased() })
    }
}

enum SMTPMessageEncoding {
    /// The DATA payload: CRLF line ends throughout, a leading "." doubled on every line (RFC 5321 4.5.2),
    /// and the terminating ".\r\n".
    ///
    /// Every bare CR or LF becomes CRLF, so no server can see an end-of-data sequence that we did not
    /// mean (the "SMTP smuggling" family of attacks relies on servers disagreeing about bare LF).
    static func dataPayload(_ message: String) -> ByteBuffer {
        let bytes = Array(message.utf8)
        var out = ByteBuffer()
        out.reserveCapacity(bytes.count + bytes.count / 16 + 8)
        var atLineStart = true
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
                out.writeStaticString("\r\n")
                if byte == UInt8(ascii: "\r") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n") {
                    index += 1
                }
                atLineStart = true
            } else {
                if atLineStart && byte == UInt8(ascii: ".") { out.writeInteger(UInt8(ascii: ".")) }
                out.writeInteger(byte)
                atLineStart = false
            }
            index += 1
        }
        if !atLineStart { out.writeStaticString("\r\n") }
        out.writeStaticString(".\r\n")
        return out
    }

    /// Addresses go inside `<…>` on a command line, so anything that could end the command or the
    /// brackets would let message data inject SMTP commands.
    static func validatedAddress(_ address: String, role: String) throws -> String {
        let forbidden: Set<Unicode.Scalar> = ["\r", "\n", "<", ">", "\0"]
        if address.unicodeScalars.contains(where: { forbidden.contains($0) }) {
            throw SMTPError(kind: .invalidMessage, detail: "\(role) address contains a line break or angle bracket")
        }
        if address.trimmingCharacters(in: .whitespaces).isEmpty {
            throw SMTPError(kind: .invalidMessage, detail: "\(role) address is empty")
        }
        return address.trimmingCharacters(in: .whitespaces)
    }
}
