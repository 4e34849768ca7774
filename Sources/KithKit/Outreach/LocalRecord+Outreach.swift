import Foundation
import KithCore

/// Outreach values read from the local store's records.
extension OutreachYear {
    init?(_ record: LocalRecord) { self.init(id: record.id, fields: record.fields) }
}

extension OutreachContact {
    init?(_ record: LocalRecord) { self.init(id: record.id, fields: record.fields) }
}
