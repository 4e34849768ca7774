import Foundation

/// One plain-text mail, as the server sends it (password resets, later notifications).
public struct MailMessage: Sendable, Equatable {
    /// Bare addresses (`name@example.com`); display names are not needed yet.
    public var from: String
    public var to: String
    public var subject: String
    public var textBody: String

    public init(from: String, to: String, subject: String, textBody: String) {
        self.from = from
        self.to = to
        self.subject = subject
        self.textBody = textBody
    }

    /// The message in RFC 5322 form with CRLF line ends, ready for SMTP DATA or an .eml file.
    /// ASCII bodies go as 7bit so the text stays readable in the file; others as base64.
    public func rendered(date: Date, messageID: String) -> String {
        // The body ends with exactly one line end, whether or not the text had one.
        var textBody = self.textBody
        while textBody.hasSuffix("\n") || textBody.hasSuffix("\r") { textBody.removeLast() }
        let isASCII = textBody.unicodeScalars.allSatisfy(\.isASCII)
        var headers = [
            "From: \(Self.headerSafe(from))",
            "To: \(Self.headerSafe(to))",
            "Subject: \(Self.encodedSubject(subject))",
            "Date: \(Self.rfc5322Date(date))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
        ]
        let body: String
        if isASCII {
            headers.append("Content-Transfer-Encoding: 7bit")
            body = textBody.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        } else {
            headers.append("Content-Transfer-Encoding: base64")
            body = Data(textBody.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        }
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + body + "\r\n"
    }

    /// Header values must not smuggle in new header lines.
    private static func headerSafe(_ value: String) -> String {
        value.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
    }

    private static func encodedSubject(_ subject: String) -> String {
        let safe = headerSafe(subject)
        if safe.unicodeScalars.allSatisfy(\.isASCII) { return safe }
        return "=?utf-8?B?\(Data(safe.utf8).base64EncodedString())?="
    }

    private static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}

/// Something that delivers mail. The server picks one at start-up: SMTP when configured, else the outbox.
public protocol Mailer: Sendable {
    func send(_ message: MailMessage) async throws
}
