import Foundation
import KithCore

/// Where and how `SMTPMailer` delivers mail.
public struct SMTPConfiguration: Sendable, Equatable {
    public enum Security: Sendable, Equatable {
        /// Upgrade with STARTTLS when the server offers it, else continue in plain text.
        /// Suits a relay on the same host or network, which often has no certificate. Once offered, a
        /// failed upgrade (e.g. an untrusted certificate) fails the send: falling back to plain text
        /// would let anyone on the path force it.
        case startTLSIfOffered
        /// Fail unless the server offers STARTTLS, so credentials and mail never cross the network in plain text.
        case startTLSRequired
        /// TLS from the first byte (the `smtps` convention, usually port 465).
        case implicitTLS
    }

    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    public var security: Security
    /// A PEM file of CA certificates to trust instead of the system roots, e.g. for a relay with a
    /// private CA or a self-signed certificate.
    public var trustedCertificatesFile: String?
    /// The limit for each SMTP step (connect, each command and its reply), not for the whole mail.
    public var timeout: Duration

    public static let defaultTimeout: Duration = .seconds(10)

    /// - Parameter port: defaults to 465 for `.implicitTLS`, else 25.
    public init(
        host: String,
        port: Int? = nil,
        username: String? = nil,
        password: String? = nil,
        security: Security = .startTLSIfOffered,
        trustedCertificatesFile: String? = nil,
        timeout: Duration = SMTPConfiguration.defaultTimeout
    ) {
        self.host = host
        self.port = port ?? Self.defaultPort(for: security)
        self.username = username
        self.password = password
        self.security = security
        self.trustedCertificatesFile = trustedCertificatesFile
        self.timeout = timeout
    }

    static func defaultPort(for security: Security) -> Int {
        security == .implicitTLS ? 465 : 25
    }

    /// Parses an SMTP URL:
    /// - `smtp://[user[:password]@]host[:port]`: STARTTLS when the server offers it; port 25 by default.
    /// - `smtp+starttls://…`: STARTTLS required; port 25 by default.
    /// - `smtps://…`: implicit TLS; port 465 by default.
    ///
    /// User and password are percent-decoded, so `@`, `:` and `/` in them must be written `%40`, `%3A`, `%2F`.
    /// Errors describe the problem without repeating the URL, which may hold a password.
    public static func parse(url: String) throws -> SMTPConfiguration {
        let trimmed = url.trimmedWhitespace
        guard let schemeEnd = trimmed.range(of: "://") else {
            throw SMTPError.invalidConfiguration(
                "SMTP URL must look like smtp://[user[:password]@]host[:port] (or smtp+starttls://, smtps://)")
        }
        let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
        let security: Security
        switch scheme {
        case "smtp": security = .startTLSIfOffered
        case "smtp+starttls": security = .startTLSRequired
        case "smtps": security = .implicitTLS
        default:
            throw SMTPError.invalidConfiguration(
                "unsupported SMTP URL scheme '\(scheme)' (use smtp, smtp+starttls or smtps)")
        }
        guard let components = URLComponents(string: trimmed) else {
            throw SMTPError.invalidConfiguration(
                "SMTP URL is malformed; percent-encode special characters such as @ : / in the user name and password")
        }

        var host = components.percentEncodedHost ?? ""
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        }
        host = host.removingPercentEncoding ?? host
        guard !host.isEmpty else {
            throw SMTPError.invalidConfiguration("SMTP URL has no host")
        }
        if !components.percentEncodedPath.isEmpty && components.percentEncodedPath != "/" {
            throw SMTPError.invalidConfiguration("SMTP URL must not have a path after the host")
        }
        if components.percentEncodedQuery != nil || components.percentEncodedFragment != nil {
            throw SMTPError.invalidConfiguration("SMTP URL must not have a query or fragment")
        }

        let port: Int
        if let explicit = components.port {
            guard (1...65535).contains(explicit) else {
                throw SMTPError.invalidConfiguration("SMTP URL port \(explicit) is out of range 1-65535")
            }
            port = explicit
        } else {
            port = defaultPort(for: security)
        }

        let username = try decodedCredential(components.percentEncodedUser, what: "user name")
        let password = try decodedCredential(components.percentEncodedPassword, what: "password")
        if username == nil && password != nil {
            throw SMTPError.invalidConfiguration("SMTP URL has a password but no user name")
        }
        if username != nil && password == nil {
            throw SMTPError.invalidConfiguration("SMTP URL has a user name but no password (write user:password@host)")
        }

        return SMTPConfiguration(host: host, port: port, username: username, password: password, security: security)
    }

    private static func decodedCredential(_ encoded: String?, what: String) throws -> String? {
        guard let encoded, !encoded.isEmpty else { return nil }
        guard let decoded = encoded.removingPercentEncoding else {
            throw SMTPError.invalidConfiguration("SMTP URL \(what) has invalid percent-encoding")
        }
        return decoded
    }
}

// The default description would print the password into any log line that interpolates the configuration.
extension SMTPConfiguration: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        let scheme: String
        switch security {
        case .startTLSIfOffered: scheme = "smtp"
        case .startTLSRequired: scheme = "smtp+starttls"
        case .implicitTLS: scheme = "smtps"
        }
        var text = "\(scheme)://"
        if let username {
            text += username
            if password != nil { text += ":<redacted>" }
            text += "@"
        }
        text += host.contains(":") ? "[\(host)]" : host
        text += ":\(port)"
        return text
    }

    public var debugDescription: String {
        var text = "SMTPConfiguration(\(description), timeout: \(timeout)"
        if let trustedCertificatesFile { text += ", trustedCertificatesFile: \(trustedCertificatesFile)" }
        return text + ")"
    }
}
