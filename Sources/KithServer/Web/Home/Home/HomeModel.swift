import Foundation

/// The home page (home.mustache): the apps, each with where the person stands (`HomeView`).
struct HomeModel: PageModel {
    static let template = "home"

    let outreach: OutreachLine
    let food: FoodLine
    let family: FamilyLine
    var section: WebSection { .home }
    var scripts: PageScripts { PageScripts(scripts: ["home.js"]) }

    /// This year's list: its progress, or that it is empty (and which year, when there is one).
    struct OutreachLine {
        var summary: String?
        var delivered: Int?
        var total: Int?
        var empty = false
        var year: String?
    }

    /// Today's calories, against the goal when there is one.
    struct FoodLine {
        let summary: String
        var eaten: Int64?
        var goal: Int64?
    }

    /// The family's open reminders and unread notices, or no family yet (`none`).
    struct FamilyLine {
        var summary: String?
        var none = false
    }
}
