import Foundation

/// One unfolded line of a vCard (RFC 6350 §3.3) or iCalendar (RFC 5545 §3.1) body:
/// `[group.]NAME[;PARAM=value,value…]:value`.
public struct ContentLine: Sendable, Equatable {
    /// Apple's "item1." prefix that ties a property to its X-ABLabel, as written.
    public var group: String?
    /// Upper-cased on read.
    public var name: String
    /// In the order written; names as written (look them up with `parameter(_:)`, which ignores
    /// case), values with quotes removed and RFC 6868 `^` escapes decoded.
    public var parameters: [Parameter]
    /// The value as on the wire, unfolded but not unescaped: escaping differs per property
    /// (`ContentLines.unescapeText`, `splitComponents`).
    public var value: String

    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var values: [String]

        public init(name: String, values: [String]) {
            self.name = name
            self.values = values
        }
    }

    public init(group: String? = nil, name: String, parameters: [Parameter] = [], value: String) {
        self.group = group
        self.name = name
        self.parameters = parameters
        self.value = value
    }

    /// Every value of every parameter called `name`, in any case: `TYPE=home,work` and
    /// `TYPE=home;TYPE=work` both give ["home", "work"].
    public func parameter(_ name: String) -> [String] {
        parameters.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.flatMap(\.values)
    }

    /// Whether the line has a parameter called `name`, in any case.
    public func hasParameter(_ name: String) -> Bool {
        parameters.contains { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }
}
