import Foundation
import KithCore

/// An `addressbook-query` filter (RFC 6352 §10.5), judged on a card's lines: property filters by
/// name, each with `is-not-defined`, text matches and parameter filters, combined by `anyof`
/// (the default) or `allof`.
struct CardFilter {
    let element: DAVXMLElement

    init(_ element: DAVXMLElement) { self.element = element }

    func matches(_ body: String) throws(DAVError) -> Bool {
        let lines: [ContentLine]
        do {
            lines = try ContentLines.parse(body)
        } catch {
            return false
        }
        let filters = element.children(DAVName.card("prop-filter"))
        if filters.isEmpty { return true }
        var results: [Bool] = []
        for filter in filters { results.append(try Self.propFilter(filter, lines)) }
        return Self.allOf(element) ? results.allSatisfy { $0 } : results.contains(true)
    }

    private static func allOf(_ element: DAVXMLElement) -> Bool { element.attributes["test"]?.lowercased() == "allof" }

    private static func propFilter(_ filter: DAVXMLElement, _ lines: [ContentLine]) throws(DAVError) -> Bool {
        let name = (filter.attributes["name"] ?? "").uppercased()
        let matching = lines.filter { $0.name == name }
        if filter.child(DAVName.card("is-not-defined")) != nil { return matching.isEmpty }
        let tests = filter.children.filter { $0.name != DAVName.card("is-not-defined") }
        if tests.isEmpty { return !matching.isEmpty }
        let all = allOf(filter)
        for line in matching {
            var results: [Bool] = []
            for test in tests { results.append(try Self.test(test, line)) }
            if all ? results.allSatisfy({ $0 }) : results.contains(true) { return true }
        }
        return false
    }

    private static func test(_ test: DAVXMLElement, _ line: ContentLine) throws(DAVError) -> Bool {
        switch test.name {
        case DAVName.card("text-match"):
            return try TextMatch(test).matches(ContentLines.unescapeText(line.value))
        case DAVName.card("param-filter"):
            let values = line.parameter(test.attributes["name"] ?? "")
            if test.child(DAVName.card("is-not-defined")) != nil { return values.isEmpty }
            guard let match = test.child(DAVName.card("text-match")) else { return !values.isEmpty }
            let text = try TextMatch(match)
            return values.contains { text.matches($0) }
        default:
            return true
        }
    }
}

/// `text-match` (RFC 6352 §10.5.4, RFC 4791 §9.7.5): a collation, a match type, and negation.
struct TextMatch {
    let text: String
    let caseless: Bool
    let matchType: String
    let negate: Bool

    init(_ element: DAVXMLElement) throws(DAVError) {
        text = element.text
        let collation = element.attributes["collation"] ?? "i;unicode-casemap"
        switch collation {
        case "i;unicode-casemap", "i;ascii-casemap": caseless = true
        case "i;octet": caseless = false
        default:
            throw DAVError.forbidden(
                "The collation \(collation) is not supported.", precondition: DAVName.card("supported-collation"))
        }
        matchType = element.attributes["match-type"] ?? "contains"
        negate = element.attributes["negate-condition"] == "yes"
    }

    func matches(_ value: String) -> Bool {
        let haystack = caseless ? value.lowercased() : value
        let needle = caseless ? text.lowercased() : text
        let found: Bool =
            switch matchType {
            case "equals": haystack == needle
            case "starts-with": haystack.hasPrefix(needle)
            case "ends-with": haystack.hasSuffix(needle)
            default: needle.isEmpty || haystack.contains(needle)
            }
        return found != negate
    }
}
