import Foundation
import KithCore

/// A year's list as CSV (`OutreachCSV`: RFC 4180, UTF-8, a header row).
extension OutreachStore {
    public func exportCSV(year: UUID) throws -> String {
        OutreachCSV.export(try contacts(in: year))
    }

    /// Adds the people of `csv` to a year. Every row is checked first: one bad row is reported by
    /// its line number and nothing is imported. Returns how many people were added.
    @discardableResult
    public func importCSV(_ csv: String, into year: UUID) throws -> Int {
        let people: [[String: JSONTree]]
        do {
            people = try OutreachCSV.people(in: csv, year: year)
        } catch {
            throw KithError.invalid(error)
        }
        try writing { transaction in
            guard try transaction.record(Self.year, id: year) != nil else { throw Self.notFound("year") }
            for fields in people { try transaction.save(Self.contact, fields: fields) }
        }
        return people.count
    }
}
