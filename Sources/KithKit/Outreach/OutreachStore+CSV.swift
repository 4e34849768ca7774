import Foundation
import KithCore

/// A year's list as CSV (`OutreachCSV`: RFC 4180, UTF-8, a header row).
extension OutreachStore {
    public func exportCSV(year: UUID) throws -> String {
        OutreachCSV.export(try contacts(in: year))
    }

    /// Adds the people of `csv` (commas or semicolons) to a year. A bad row is left out and listed
    /// in the answer by its line and reason; a file that is not the CSV at all is refused and
    /// nothing is imported. Someone already in the year (same names and enterprise) is updated,
    /// not added twice: what the import did.
    @discardableResult
    public func importCSV(_ csv: String, into year: UUID) throws -> OutreachImport {
        try apply(OutreachOperations.importCSV(csv, into: year))
    }
}
