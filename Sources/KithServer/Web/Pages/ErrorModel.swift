import Foundation

/// An error as a page: the title says what happened, `error` the detail.
struct ErrorModel: PageModel {
    static let template = "error"

    let error: String
    /// Where the page's button goes instead of the home page.
    var action: Action?
    var section: WebSection { .other }

    struct Action {
        let address: String
        let label: String
    }
}
