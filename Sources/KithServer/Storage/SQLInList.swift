import PostgresKit
import SQLKit

/// `IN (…)` of a list of values, written so that on PostgreSQL a statement's text is the same
/// whatever the list's length: `= ANY($n)`, the list sent as one array value. A statement with an
/// `IN (?, ?, …)` list has another text for every length and as many values as the list, so it
/// could not be kept prepared (`PreparedStatementDatabase`) and PostgreSQL parsed and planned it
/// anew each time (docs/storage.md, "PostgreSQL, request by request"). SQLite has no arrays and
/// plans in microseconds: there it stays `IN (?, ?, …)`.
///
///     sql.raw("SELECT * FROM jobs WHERE id \(in: ids)")
struct SQLInList<Value: Encodable & Sendable>: SQLExpression {
    let values: [Value]

    func serialize(to serializer: inout SQLSerializer) {
        // One value is an equality: for `= ANY($n)` PostgreSQL's plan for a list of unknown
        // length looks dearer than one planned for a single value, so it planned a statement of
        // many subqueries (a contact's counts) afresh on every run, 0.4 ms each time.
        if values.count == 1 {
            serializer.write("= ")
            serializer.write(bind: values[0])
            return
        }
        if serializer.dialect.name == PostgresDialect().name {
            serializer.write("= ANY(")
            serializer.write(bind: values)
            serializer.write(")")
            return
        }
        serializer.write("IN (")
        for (position, value) in values.enumerated() {
            if position > 0 { serializer.write(", ") }
            serializer.write(bind: value)
        }
        serializer.write(")")
    }
}

extension SQLQueryString {
    /// `IN (…)` of `values`, as `SQLInList` writes it: `"WHERE id \(in: ids)"`.
    mutating func appendInterpolation<Value: Encodable & Sendable>(in values: [Value]) {
        appendInterpolation(SQLInList(values: values))
    }
}
