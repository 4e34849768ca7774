import Foundation
import KithCore

/// A year's list as CSV (RFC 4180, UTF-8, a header row): first name, last name, enterprise,
/// delivered, delivered at, comments.
extension OutreachStore {
    public static let csvHeader = ["First Name", "Last Name", "Enterprise", "Delivered", "Delivered At", "Comments"]

    public func exportCSV(year: UUID) throws -> String {
        let rows = try contacts(in: year).map { contact in
            [
                contact.firstName, contact.lastName, contact.enterpriseName, contact.delivered ? "yes" : "no",
                contact.deliveredAt.map(WireCoding.formatTimestamp) ?? "", contact.comments,
            ]
        }
        return CSV.write([Self.csvHeader] + rows)
    }

    /// Adds the people of `csv` to a year. Every row is checked first: one bad row is reported by
    /// its line number and nothing is imported. Returns how many people were added.
    @discardableResult
    public func importCSV(_ csv: String, into year: UUID) throws -> Int {
        let rows: [CSV.Row]
        do {
            rows = try CSV.parse(csv.hasPrefix("\u{FEFF}") ? String(csv.dropFirst()) : csv)
        } catch let error as CSV.ParseError {
            throw Self.badCSV(line: error.line, error.reason)
        }
        guard let header = rows.first else { throw Self.badCSV(line: 1, "the file is empty") }
        let expected = Self.csvHeader.map { $0.lowercased() }
        guard header.fields.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) == expected else {
            throw Self.badCSV(line: header.line, "the first row must be the header: \(Self.csvHeader.joined(separator: ","))")
        }
        let people = try rows.dropFirst().filter { $0.fields != [""] }.map { row in try Self.person(from: row, year: year) }
        try store.write { transaction in
            guard try transaction.record(Self.year, id: year) != nil else { throw Self.notFound("year") }
            for fields in people { try transaction.save(Self.contact, fields: fields) }
        }
        return people.count
    }

    static func person(from row: CSV.Row, year: UUID) throws -> [String: JSONValue] {
        guard row.fields.count == csvHeader.count else {
            throw badCSV(line: row.line, "expected \(csvHeader.count) columns, found \(row.fields.count)")
        }
        let values = row.fields
        var fields = contactFields(year: year, first: values[0], last: values[1], enterprise: values[2], comments: values[5])
        switch values[3].trimmingCharacters(in: .whitespaces).lowercased() {
        case "yes", "true", "1": fields["delivered"] = .bool(true)
        case "no", "false", "0", "": fields["delivered"] = .bool(false)
        default: throw badCSV(line: row.line, "Delivered must be yes or no, not \"\(values[3])\"")
        }
        let deliveredAt = values[4].trimmingCharacters(in: .whitespaces)
        if !deliveredAt.isEmpty {
            guard let time = WireCoding.parseTimestamp(deliveredAt) else {
                throw badCSV(line: row.line, "Delivered At must be a time like 2026-11-21T10:00:00Z, not \"\(deliveredAt)\"")
            }
            fields["deliveredAt"] = .string(WireCoding.formatTimestamp(time))
        } else if fields["delivered"] == .bool(true) {
            throw badCSV(line: row.line, "a delivered person needs Delivered At")
        }
        if let problem = OutreachEntities.contact.problems(in: fields, isCreation: true).first {
            throw badCSV(line: row.line, problem.message)
        }
        return fields
    }

    static func badCSV(line: Int, _ reason: String) -> KithError {
        KithError.invalid(APIErrorDetail(code: "invalid_csv", message: "Line \(line): \(reason)"))
    }
}
