import Foundation

/// A year's list as CSV (RFC 4180, UTF-8, a header row): first name, last name, enterprise,
/// delivered, delivered at, comments. The same on devices, the command line and the web.
public enum OutreachCSV {
    public static let header = ["First Name", "Last Name", "Enterprise", "Delivered", "Delivered At", "Comments"]

    public static func export(_ people: [OutreachContact]) -> String {
        let rows = people.map { contact in
            [
                contact.firstName, contact.lastName, contact.enterpriseName, contact.delivered ? "yes" : "no",
                contact.deliveredAt.map(WireCoding.formatTimestamp) ?? "", contact.comments,
            ]
        }
        return CSV.write([header] + rows)
    }

    /// The new people's fields, one per data row, for `year`. Every row is checked: the first bad
    /// one is the error (code `invalid_csv`, "Line N: …"), so nothing is imported from a bad file.
    public static func people(in csv: String, year: UUID) throws(APIErrorDetail) -> [[String: JSONTree]] {
        let rows: [CSV.Row]
        do {
            rows = try CSV.parse(csv.hasPrefix("\u{FEFF}") ? String(csv.dropFirst()) : csv)
        } catch let error as CSV.ParseError {
            throw problem(line: error.line, error.reason)
        } catch {
            throw problem(line: 1, "\(error)")
        }
        guard let first = rows.first else { throw problem(line: 1, "the file is empty") }
        let expected = header.map { $0.lowercased() }
        guard first.fields.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) == expected else {
            throw problem(line: first.line, "the first row must be the header: \(header.joined(separator: ","))")
        }
        var people: [[String: JSONTree]] = []
        for row in rows.dropFirst() where row.fields != [""] {
            people.append(try person(from: row, year: year))
        }
        return people
    }

    static func person(from row: CSV.Row, year: UUID) throws(APIErrorDetail) -> [String: JSONTree] {
        guard row.fields.count == header.count else {
            throw problem(line: row.line, "expected \(header.count) columns, found \(row.fields.count)")
        }
        let values = row.fields
        var fields = OutreachFields.newContact(
            year: year, first: values[0], last: values[1], enterprise: values[2], comments: values[5])
        switch values[3].trimmingCharacters(in: .whitespaces).lowercased() {
        case "yes", "true", "1": fields["delivered"] = .bool(true)
        case "no", "false", "0", "": fields["delivered"] = .bool(false)
        default: throw problem(line: row.line, "Delivered must be yes or no, not \"\(values[3])\"")
        }
        let deliveredAt = values[4].trimmingCharacters(in: .whitespaces)
        if !deliveredAt.isEmpty {
            guard let time = WireCoding.parseTimestamp(deliveredAt) else {
                throw problem(line: row.line, "Delivered At must be a time like 2026-11-21T10:00:00Z, not \"\(deliveredAt)\"")
            }
            fields["deliveredAt"] = .string(WireCoding.formatTimestamp(time))
        } else if fields["delivered"] == .bool(true) {
            throw problem(line: row.line, "a delivered person needs Delivered At")
        }
        if let problem = OutreachEntities.contact.problems(in: fields, isCreation: true).first {
            throw Self.problem(line: row.line, problem.message)
        }
        return fields
    }

    static func problem(line: Int, _ reason: String) -> APIErrorDetail {
        APIErrorDetail(.invalidCSV, "Line \(line): \(reason)")
    }
}
