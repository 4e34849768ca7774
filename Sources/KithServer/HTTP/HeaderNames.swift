import HTTPTypes

/// The header names Kith sets that HTTPTypes does not name. Each literal is a valid field name,
/// so these force unwraps cannot fail; they are written once, here.
extension HTTPField.Name {
    static let requestID = HTTPField.Name("X-Request-ID")!
    static let csrfToken = HTTPField.Name("X-CSRF-Token")!
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed")!
    static let rateLimitLimit = HTTPField.Name("X-RateLimit-Limit")!
    static let rateLimitRemaining = HTTPField.Name("X-RateLimit-Remaining")!
    static let rateLimitReset = HTTPField.Name("X-RateLimit-Reset")!
    static let strictTransportSecurity = HTTPField.Name("Strict-Transport-Security")!
    static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let frameOptions = HTTPField.Name("X-Frame-Options")!
}
