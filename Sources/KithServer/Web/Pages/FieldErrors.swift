import Foundation

/// A form's refusals, each next to the field it names (`{{#errors.name}}`): one optional message
/// per field the form shows, found by the field name a rule's refusal carries.
protocol FieldErrors {
    init()
    /// The form's fields by the name a refusal gives them.
    static var fields: [String: WritableKeyPath<Self, String?>] { get }
}

extension FieldErrors {
    /// `error` next to the field it names; nil when it names none of the form's fields (or none
    /// of `among`, when given): the page shows it above the form instead.
    init?(_ error: AppError, among names: [String]? = nil) {
        guard let name = error.detail.field, names?.contains(name) ?? true, let field = Self.fields[name] else {
            return nil
        }
        self.init()
        self[keyPath: field] = error.detail.message
    }

    /// Several refusals at once, by field name (names the form lacks are left out).
    init(_ messages: [String: String]) {
        self.init()
        for (name, field) in Self.fields { self[keyPath: field] = messages[name] }
    }
}
