import Foundation

/// "Delete this?" before a deletion (or a removal, or leaving), in the app it belongs to: the
/// question, what follows, the button that does it and the way back. When a rule forbids it (the
/// last year, the last parent), `refusal` says why instead, with only the way back.
struct ConfirmModel: PageModel {
    static let template = "confirm"

    let section: WebSection
    let question: String
    let consequence: String
    /// Where the button posts.
    let action: String
    let button: String
    /// The way back.
    let cancel: String
    var refusal: String?
}
