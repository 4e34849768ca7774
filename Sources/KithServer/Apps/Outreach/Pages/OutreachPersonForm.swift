import Foundation
import KithCore

/// The person form's fields, as stored or as typed, shown in the form (and, on the list, in the
/// "add anyway?" form that sends them again).
struct OutreachPersonForm {
    var firstName = ""
    var lastName = ""
    var enterpriseName = ""
    var comments = ""

    init(form: WebForm) {
        firstName = form["firstName"]
        lastName = form["lastName"]
        enterpriseName = form["enterpriseName"]
        comments = form["comments"]
    }

    init(_ person: OutreachContact) {
        firstName = person.firstName
        lastName = person.lastName
        enterpriseName = person.enterpriseName
        comments = person.comments
    }
}

/// Each refused field of the person form in words (`OutreachFormErrors`), shown next to it.
struct OutreachPersonErrors: FieldErrors {
    var firstName: String?
    var lastName: String?
    var enterpriseName: String?
    var comments: String?

    static var fields: [String: WritableKeyPath<Self, String?>] {
        ["firstName": \.firstName, "lastName": \.lastName, "enterpriseName": \.enterpriseName, "comments": \.comments]
    }
}
