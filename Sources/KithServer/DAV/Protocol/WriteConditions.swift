import Hummingbird

/// `If-Match` and `If-None-Match` on a PUT or DELETE (RFC 9110 §13.1): what the client saw. A
/// client creating a member sends `If-None-Match: *` (nothing there yet); one changing or deleting
/// sends the tag it last synced. A write the member does not meet is 412 and changes nothing.
struct WriteConditions: Sendable {
    /// nil: no `If-Match`; `.some(nil)`: `*`.
    let ifMatch: [String]??
    let ifNoneMatch: [String]??

    init(_ request: Request) throws(DAVError) {
        ifMatch = try Self.tags(request.headers[values: .ifMatch], header: "If-Match")
        ifNoneMatch = try Self.tags(request.headers[values: .ifNoneMatch], header: "If-None-Match")
    }

    /// Throws 412 unless `current` (the member as it is, nil when there is none) meets both.
    func check(_ current: DAVItem?) throws(DAVError) {
        if let ifMatch {
            guard let current else { throw DAVError.stale }
            if let tags = ifMatch, !tags.contains(current.etag) { throw DAVError.stale }
        }
        if let ifNoneMatch, let current {
            if ifNoneMatch == nil || ifNoneMatch?.contains(current.etag) == true { throw DAVError.stale }
        }
    }

    private static func tags(_ values: [String], header: String) throws(DAVError) -> [String]?? {
        guard !values.isEmpty else { return nil }
        let text = values.joined(separator: ",").trimmingCharacters(in: .whitespaces)
        if text == "*" { return .some(nil) }
        guard let tags = IfMatch.parse(text[...]) else {
            throw DAVError(.badRequest, "The \(header) header must be * or a list of quoted entity tags.")
        }
        return .some(tags)
    }
}
