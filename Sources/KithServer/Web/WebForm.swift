import Foundation
import Hummingbird
import KithCore
import NIOCore

/// A submitted HTML form (`application/x-www-form-urlencoded`), read only after its CSRF token
/// matched the browser's CSRF cookie.
struct WebForm: Sendable {
    private let fields: [String: String]
    /// Every name and value in the order sent: a name may come many times (ticked boxes).
    private let pairs: [(name: String, value: String)]

    static func read(_ request: Request, context: AppRequestContext) async throws -> WebForm {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: SyncLimits.largestBody)
        } catch is NIOTooManyBytesError {
            throw AppError.payloadTooLarge
        }
        let pairs = FormEncoding.pairs(String(buffer: buffer)[...])
        let form = WebForm(fields: Dictionary(pairs.map { ($0.name, $0.value) }) { _, last in last }, pairs: pairs)
        guard let expected = context.csrfToken, let sent = form.fields["_csrf"],
            Tokens.constantTimeEquals(expected, sent)
        else {
            throw AppError(
                .forbidden, .csrfFailed, "This form expired or came from another site. Reload the page and try again.")
        }
        return form
    }

    subscript(_ name: String) -> String { fields[name] ?? "" }

    /// Every value sent under `name`, in order (a list's ticked boxes); the subscript gives the last.
    func all(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    /// Whether the form sent `name` at all (a disabled field is not sent).
    func contains(_ name: String) -> Bool { fields[name] != nil }

    /// The write key the page's script put in the form (`_key`: a random id per form shown, kept
    /// when the same form is sent again), nil when it sent none (docs/sync.md, "Write keys").
    var writeKey: String? {
        guard let key = fields[Self.writeKeyField], !key.isEmpty else { return nil }
        return key
    }

    /// What the form asked, for its write key: every field but the CSRF token and the key itself.
    var request: String {
        pairs.filter { $0.name != "_csrf" && $0.name != Self.writeKeyField }.sorted {
            ($0.name, $0.value) < ($1.name, $1.value)
        }
        .map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }

    static let writeKeyField = "_key"

    /// The prefix of the hidden fields an edit form sends with what it showed (`seen.name`), so
    /// a save writes only what the person changed (docs/sync.md, "A write says what it saw").
    static let seenPrefix = "seen."

    /// The form's `seen.…` fields, as a reader of the form's own fields; nil when the form sent
    /// none (a form from before the page showed them, a script): then nothing is known of what
    /// its writer saw. `marker` is a field every such form sends.
    func seen(marker: String) -> ((String) -> String)? {
        guard fields[Self.seenPrefix + marker] != nil else { return nil }
        return { self[Self.seenPrefix + $0] }
    }
}
