import Foundation

extension [FieldRules] {
    /// The longest text a field's rules take (`max:N`), for a form's `maxlength`. A field the
    /// rules lack, or without a `max`, is a mistake in the page, found by its first render.
    func maxLength(of field: String) -> Int {
        let rules = first { $0.name == field }?.rules ?? []
        for rule in rules {
            if case .max(let length) = rule { return length }
        }
        preconditionFailure("no max rule for \(field)")
    }
}
