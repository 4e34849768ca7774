import Foundation
import GRDB
import KithCore

/// The signed-in user's family as this device knows it from synced records alone (the server
/// mirrors the family into `family.info` and `family.member` records), so it shows offline.
public struct LocalFamily: Sendable, Equatable {
    /// The family's id, as `/v1/family` names it.
    public let id: String
    /// Its sync scope, `family:<id>`.
    public let scope: String
    /// Empty until the family's `family.info` record has arrived.
    public let name: String
    /// Where recurrences are counted.
    public let timeZone: TimeZone
    /// Parents first, then by name.
    public let members: [FamilyMember]
    /// The signed-in user's id.
    public let me: String
    public let myRole: FamilyMember.Role
    /// How often the assignee may snooze one occurrence's due notice (a parent's choice, default 3).
    public let snoozeLimit: Int64

    public func member(_ userId: String) -> FamilyMember? { members.first { $0.id == userId.lowercased() } }
}

/// Finds a user's family among a store's records and reads it whole.
enum FamilyRecords {
    static let entities = FamilyEntities.all.map(\.name)

    /// The family `user` is a member of, with every record of it, or nil when the store holds no
    /// member record for them (not in a family, or not synced since joining).
    static func read(member user: String, _ db: Database) throws -> (family: LocalFamily, book: FamilyBook)? {
        try readWithRecords(member: user, db).map { (family: $0.family, book: $0.book) }
    }

    /// The same with the family's records, which the rules judge a trial over.
    static func readWithRecords(member user: String, _ db: Database) throws -> (
        family: LocalFamily, book: FamilyBook, records: [SyncRecord]
    )? {
        let memberTable = quoted(EntityTable.tableName(FamilyEntities.member.name))
        // One family per user; should a pull ever hold two for a moment (a family left and another
        // joined before the old one's records go), the choice is at least the same on every read.
        guard
            let scope = try String.fetchOne(
                db, sql: "SELECT scope FROM \(memberTable) WHERE lower(userId) = ? ORDER BY scope LIMIT 1",
                arguments: [user.lowercased()])
        else { return nil }
        var records: [SyncRecord] = []
        for declaration in FamilyEntities.all {
            let table = EntityTable(declaration: declaration)
            records += try Row.fetchAll(
                db, sql: "SELECT * FROM \(quoted(table.name)) WHERE scope = ?", arguments: [scope]
            )
            .map(table.record(from:))
        }
        let book = FamilyBook(records: records)
        guard let me = book.member(user) else { return nil }
        let family = LocalFamily(
            id: String(scope.dropFirst("family:".count)), scope: scope, name: book.name ?? "", timeZone: book.timeZone,
            members: book.members, me: me.id, myRole: me.role,
            snoozeLimit: book.snoozeLimit)
        return (family, book, records)
    }
}
