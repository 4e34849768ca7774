import Foundation

/// A year's list as CSV (RFC 4180, UTF-8, a header row): first name, last name, enterprise,
/// delivered, delivered at, comments. The same on devices, the command line and the web. Files
/// are written with commas and read with commas or semicolons (Excel's choice where the decimal
/// mark is a comma).
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

    /// What a file holds: the new people's fields, one per good data row, for `year`, and the
    /// lines left out with why. A file that is not this CSV at all (no header row, a quote that
    /// never closes) is the error (code `invalid_csv`, "Line N: …"), and nothing is imported.
    public struct Reading: Sendable, Equatable {
        public var people: [[String: JSONTree]] = []
        public var skipped: [OutreachSkippedLine] = []
    }

    public static func read(_ csv: String, year: UUID) throws(APIErrorDetail) -> Reading {
        let text = csv.hasPrefix("\u{FEFF}") ? String(csv.dropFirst()) : csv
        let rows: [CSV.Row]
        do {
            rows = try CSV.parse(text, separator: CSV.separator(of: text))
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
        var reading = Reading()
        for row in rows.dropFirst() where row.fields != [""] {
            switch person(from: row, year: year) {
            case .success(let fields): reading.people.append(fields)
            case .failure(let reason): reading.skipped.append(OutreachSkippedLine(line: row.line, reason: reason))
            }
        }
        return reading
    }

    static func person(from row: CSV.Row, year: UUID) -> Result<[String: JSONTree], OutreachSkippedLine.Reason> {
        guard row.fields.count == header.count else { return .failure(.columns(row.fields.count)) }
        let values = row.fields
        var fields = OutreachFields.newContact(
            year: year, first: values[0], last: values[1], enterprise: values[2], comments: values[5])
        switch values[3].trimmingCharacters(in: .whitespaces).lowercased() {
        case "yes", "true", "1": fields[OutreachFields.delivered] = .bool(true)
        case "no", "false", "0", "": fields[OutreachFields.delivered] = .bool(false)
        default: return .failure(.delivered)
        }
        let deliveredAt = values[4].trimmingCharacters(in: .whitespaces)
        if !deliveredAt.isEmpty {
            guard let time = WireCoding.parseTimestamp(deliveredAt) else { return .failure(.deliveredAt) }
            fields[OutreachFields.deliveredAt] = .string(WireCoding.formatTimestamp(time))
        } else if fields[OutreachFields.delivered] == .bool(true) {
            return .failure(.deliveredAtMissing)
        }
        let typed = [
            OutreachFields.firstName: values[0], OutreachFields.lastName: values[1],
            OutreachFields.enterpriseName: values[2], OutreachFields.comments: values[5],
        ]
        if let problem = OutreachEntities.contact.problems(in: fields, isCreation: true).first {
            guard let field = problem.field, let value = typed[field] else { return .failure(.unreadable) }
            return .failure(.field(field, OutreachFieldWords.trouble(field, typed: value)))
        }
        return .success(fields)
    }

    static func problem(line: Int, _ reason: String) -> APIErrorDetail {
        APIErrorDetail(.invalidCSV, "Line \(line): \(reason)")
    }
}

/// A line of a CSV file that an import left out, and why, in words every surface shows alike
/// ("Line 4: Enter a last name."). The reason is one of a fixed few, so the web page can carry
/// it in an address as a short code (`reason.code`) and say it again from that code alone.
public struct OutreachSkippedLine: Sendable, Equatable, Codable {
    public let line: Int
    public let reason: Reason

    public init(line: Int, reason: Reason) {
        self.line = line
        self.reason = reason
    }

    public enum Reason: Error, Sendable, Hashable {
        /// A line with another number of columns than the header's six.
        case columns(Int)
        case delivered, deliveredAt, deliveredAtMissing
        /// A person's field the entity's declaration refuses.
        case field(String, OutreachFieldWords.Trouble)
        case unreadable

        /// "columns-7", "delivered", "missing-lastName", …
        public var code: String {
            switch self {
            case .columns(let count): "columns-\(count)"
            case .delivered: "delivered"
            case .deliveredAt: "deliveredAt"
            case .deliveredAtMissing: "needsDeliveredAt"
            case .field(let field, let trouble): "\(trouble.rawValue)-\(field)"
            case .unreadable: "unreadable"
            }
        }

        /// The reason a code names; nil for anything else (an address can't put words of its own
        /// on the page).
        public init?(code: String) {
            let parts = code.split(separator: "-", maxSplits: 1).map(String.init)
            switch (parts.first ?? "", parts.count) {
            case ("columns", 2):
                guard let count = Int(parts[1]), (0...10_000).contains(count) else { return nil }
                self = .columns(count)
            case ("delivered", 1): self = .delivered
            case ("deliveredAt", 1): self = .deliveredAt
            case ("needsDeliveredAt", 1): self = .deliveredAtMissing
            case ("unreadable", 1): self = .unreadable
            case (let trouble, 2):
                guard let trouble = OutreachFieldWords.Trouble(rawValue: trouble),
                    OutreachFieldWords.labels.contains(where: { $0.field == parts[1] })
                else { return nil }
                self = .field(parts[1], trouble)
            default: return nil
            }
        }

        public var sentence: String {
            switch self {
            case .columns(let count):
                "It has \(count) \(count == 1 ? "column" : "columns"); a line needs \(OutreachCSV.header.count)."
            case .delivered: "Delivered must be yes or no."
            case .deliveredAt: "Delivered At must be a time like 2026-11-21T10:00:00Z."
            case .deliveredAtMissing: "A delivered person needs Delivered At."
            case .field(let field, let trouble): OutreachFieldWords.sentence(field, trouble)
            case .unreadable: "It could not be read."
            }
        }
    }

    /// "Line 4: Enter a last name."
    public var sentence: String { "Line \(line): \(reason.sentence)" }

    private enum CodingKeys: String, CodingKey { case line, reason, message }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        line = try container.decode(Int.self, forKey: .line)
        let code = try container.decode(String.self, forKey: .reason)
        guard let reason = Reason(code: code) else {
            throw DecodingError.dataCorruptedError(
                forKey: .reason, in: container, debugDescription: "no reason \(code)")
        }
        self.reason = reason
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(line, forKey: .line)
        try container.encode(reason.code, forKey: .reason)
        try container.encode(reason.sentence, forKey: .message)
    }
}
