import Foundation
import KithCore

/// The person form's fields, as stored or as typed, shown in the form (and, on the list, in the
/// "add anyway?" form that sends them again).
struct OutreachPersonForm {
    var firstName = ""
    var lastName = ""
    var enterpriseName = ""
    var comments = ""

    /// The fields as typed.
    init(form: WebForm) { self.init(value: { form[$0] }) }

    /// The fields `value` reads by name (a form's own, or its `seen.…` ones: `WebForm.seen`).
    init(value: (String) -> String) {
        firstName = value(OutreachFields.firstName)
        lastName = value(OutreachFields.lastName)
        enterpriseName = value(OutreachFields.enterpriseName)
        comments = value(OutreachFields.comments)
    }

    /// The edit this form makes of a person it showed as `seen`: every field, with what it showed.
    func edits(seen: OutreachPersonForm?) -> [FieldEdit] {
        [
            (OutreachFields.firstName, firstName, seen?.firstName), (OutreachFields.lastName, lastName, seen?.lastName),
            (OutreachFields.enterpriseName, enterpriseName, seen?.enterpriseName),
            (OutreachFields.comments, comments, seen?.comments),
        ].map { field, value, seen in FieldEdit(field, seen: seen, value: value) }
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
