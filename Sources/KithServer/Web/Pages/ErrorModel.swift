import Foundation

/// An error as a page: the title says what happened, `error` the detail.
struct ErrorModel: PageModel {
    static let template = "error"

    let error: String
    var section: WebSection { .other }
}
