import Foundation

/// RFC 4180 CSV: fields separated by commas, records by CRLF (LF accepted), fields with commas,
/// quotes or line breaks in double quotes, quotes doubled inside. Small and dependency-free so the
/// server and devices read and write the same files. Reading also takes semicolons as the
/// separator: Excel writes them where the decimal mark is a comma (French, German, …).
public enum CSV {
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// 1-based line where the bad record starts.
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// One parsed record with the line it started on.
    public struct Row: Equatable, Sendable {
        public let line: Int
        public let fields: [String]
    }

    /// The separator a file uses, read from its first line: a semicolon when it has more of them
    /// than commas outside quotes, else a comma.
    public static func separator(of text: String) -> Character {
        var commas = 0
        var semicolons = 0
        var inQuotes = false
        for character in text {
            switch character {
            case "\"": inQuotes.toggle()
            case "," where !inQuotes: commas += 1
            case ";" where !inQuotes: semicolons += 1
            case "\n", "\r\n", "\r": if !inQuotes { return semicolons > commas ? ";" : "," }
            default: break
            }
        }
        return semicolons > commas ? ";" : ","
    }

    /// Parses `text` into rows, fields separated by `separator`; an empty last line is not a row.
    /// A quote that never closes, or text right after a closing quote, is an error naming its line.
    public static func parse(_ text: String, separator: Character = ",") throws -> [Row] {
        var rows: [Row] = []
        var fields: [String] = []
        var field = ""
        var line = 1
        var rowLine = 1
        var inQuotes = false
        var afterQuote = false
        var characters = text.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let character = pending {
                pending = nil
                return character
            }
            return characters.next()
        }
        func endRow() {
            fields.append(field)
            rows.append(Row(line: rowLine, fields: fields))
            fields = []
            field = ""
            afterQuote = false
        }
        while let character = next() {
            if inQuotes {
                if character == "\"" {
                    if let following = next() {
                        if following == "\"" {
                            field.append("\"")
                        } else {
                            inQuotes = false
                            afterQuote = true
                            pending = following
                        }
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case separator:
                fields.append(field)
                field = ""
                afterQuote = false
            case "\n", "\r\n", "\r":
                endRow()
                line += 1
                rowLine = line
            case "\"" where field.isEmpty && !afterQuote:
                inQuotes = true
            default:
                if afterQuote {
                    throw ParseError(line: line, reason: "text after a closing quote")
                }
                if character == "\"" {
                    throw ParseError(line: line, reason: "a quote inside an unquoted field")
                }
                field.append(character)
            }
        }
        if inQuotes { throw ParseError(line: rowLine, reason: "a quoted field never ends") }
        if !field.isEmpty || !fields.isEmpty || afterQuote { endRow() }
        return rows
    }

    /// Writes rows with CRLF line ends, quoting only fields that need it.
    public static func write(_ rows: [[String]]) -> String {
        rows.map { $0.map(quote).joined(separator: ",") + "\r\n" }.joined()
    }

    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
