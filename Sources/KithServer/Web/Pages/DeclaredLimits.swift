import Foundation
import KithCore

/// The limits a form's fields show the browser (`maxlength`, `min`, `max`), read from the
/// declarations the server checks, so a limit is written once. A field a page names that its
/// declaration lacks is a mistake in the page, found by the first render of it (every page has a
/// test that renders it).
extension EntityDeclaration {
    /// The most characters a text field takes.
    func maxLength(of field: String) -> Int {
        guard case .string(let maxLength, _) = declared(field).type else {
            preconditionFailure("\(name).\(field) is not text")
        }
        return maxLength
    }

    /// The smallest and largest number a number field takes.
    func bounds(of field: String) -> InputBounds {
        switch declared(field).type {
        case .number(let range): InputBounds(range)
        case .integer(let range): InputBounds(range)
        default: preconditionFailure("\(name).\(field) is not a number")
        }
    }

    private func declared(_ field: String) -> FieldDeclaration {
        guard let declaration = fields.first(where: { $0.name == field }) else {
            preconditionFailure("\(name) declares no field \(field)")
        }
        return declaration
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
