import Foundation
import KithCore

/// The limits a form's fields show the browser (`min`, `max`; `maxlength` is KithCore's
/// `maxLength(of:)`), read from the declarations the server checks, so a limit is written once. A field a page names that its
/// declaration lacks is a mistake in the page, found by the first render of it (every page has a
/// test that renders it).
extension EntityDeclaration {
    /// The smallest and largest number a number field takes.
    func bounds(of field: String) -> InputBounds {
        switch declaration(of: field).type {
        case .number(let range): InputBounds(range)
        case .integer(let range): InputBounds(range)
        default: preconditionFailure("\(name).\(field) is not a number")
        }
    }
}

/// A number field's `min` and `max`, written as the browser reads them ("50000", not "50000.0").
struct InputBounds: Sendable {
    let min: String
    let max: String

    init(_ range: ClosedRange<Double>) {
        min = Food.format(range.lowerBound)
        max = Food.format(range.upperBound)
    }

    init<Number: BinaryInteger>(_ range: ClosedRange<Number>) {
        min = String(range.lowerBound)
        max = String(range.upperBound)
    }
}
