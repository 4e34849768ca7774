/// Why sending through SMTP (or reading an SMTP URL) failed.
///
/// Descriptions are written for an operator reading the server log, so they name the step and the
/// server; they never contain the password.
public struct SMTPError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The SMTP URL or configuration is unusable.
        case invalidConfiguration
        /// The server answered with a reply code we cannot continue from; see `replyCode`/`replyText`.
        case unexpectedReply
        /// TCP connect failed, or the server closed the connection early.
        case connection
        /// The TLS handshake failed (untrusted certificate, wrong host name, …) or certificates could not be loaded.
        case tls
        /// A step did not finish within `SMTPConfiguration.timeout`.
        case timeout
        /// STARTTLS is required by the configuration but the server does not offer it.
        case startTLSUnavailable
        /// Credentials are configured but the server offers no AUTH mechanism we support.
        case authenticationUnavailable
        /// The message cannot be sent as given (e.g. an address containing a line break).
        case invalidMessage
        /// The server's replies do not follow the SMTP grammar.
        case protocolViolation
    }

    public var kind: Kind
    /// The SMTP step that failed, e.g. "AUTH" or "RCPT TO"; nil for configuration errors.
    public var step: String?
    /// The server's reply code, when the failure is a reply (e.g. 535 for bad credentials).
    public var replyCode: Int?
    /// The server's reply text (all lines joined with a space), when the failure is a reply.
    public var replyText: String?
    /// A human-readable reason when the failure is not a reply.
    public var detail: String

    public init(kind: Kind, step: String? = nil, replyCode: Int? = nil, replyText: String? = nil, detail: String) {
        self.kind = kind
        self.step = step
        self.replyCode = replyCode
        self.replyText = replyText
        self.detail = detail
    }

    public var description: String {
        var text: String
        if let step {
            text = "SMTP \(step) failed: "
        } else {
            // Configuration details already start with "SMTP URL …".
            text = kind == .invalidConfiguration ? "" : "SMTP failed: "
        }
        text += detail
        if let replyCode {
            if !detail.isEmpty { text += "; " }
            text += "server replied \(replyCode)"
            if let replyText, !replyText.isEmpty { text += " \(replyText)" }
        }
        return text
    }

    static func invalidConfiguration(_ detail: String) -> SMTPError {
        SMTPError(kind: .invalidConfiguration, detail: detail)
    }
}
