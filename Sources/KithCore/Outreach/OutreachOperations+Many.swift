import Foundation

/// Changes to many people at once (the ones ticked in a list), each with what undoes it: a tick
/// answers with every changed person's delivery as it was, a deletion with the people as they were.
extension OutreachOperations {
    /// The most people one change may name: more than a year's list holds in practice, few enough
    /// that one transaction stays short.
    public static let manyLimit = 10_000

    /// Delivered now (the time of the click) or not, for each of `ids` still there. People already
    /// so are left as they are (a delivered person keeps the time of delivery). The answer is each
    /// changed person's delivery as it was, for `restoreDeliveries`.
    public static func setDelivered(_ ids: [UUID], _ delivered: Bool) -> RecordOperation<[OutreachDelivery]> {
        RecordOperation("outreach.setDeliveredMany", reading: manyReads(ids)) { (draft) throws(APIErrorDetail) in
            let people = try present(ids, in: draft)
            var before: [OutreachDelivery] = []
            for person in people where person.delivered != delivered {
                before.append(OutreachDelivery(person))
                draft.upsert(OutreachEntities.contact, person.id, OutreachFields.delivery(delivered, at: draft.now))
            }
            return before
        }
    }

    /// Takes back a change of many: deliveries as they were, or deleted people added again. The
    /// answer is how many people it put back.
    public static func undo(_ undo: OutreachUndo) -> RecordOperation<Int> {
        switch undo {
        case .deliveries(let deliveries): restoreDeliveries(deliveries)
        case .deletion(let people): restorePeople(people)
        }
    }

    /// Puts deliveries back as they were (the undo of a tick of many): each person still there gets
    /// the delivery and time given.
    public static func restoreDeliveries(_ deliveries: [OutreachDelivery]) -> RecordOperation<Int> {
        RecordOperation("outreach.restoreDeliveries", reading: manyReads(deliveries.map(\.id))) {
            (draft) throws(APIErrorDetail) in
            let people = try present(deliveries.map(\.id), in: draft)
            let wanted = Dictionary(deliveries.map { ($0.id, $0) }) { first, _ in first }
            for person in people {
                guard let delivery = wanted[person.id] else { continue }
                draft.upsert(OutreachEntities.contact, person.id, delivery.fields)
            }
            return people.count
        }
    }

    /// Deletes each of `ids` still there: the people as they were, for `restorePeople`.
    public static func deletePeople(_ ids: [UUID]) -> RecordOperation<[OutreachContact]> {
        RecordOperation("outreach.deletePeople", reading: manyReads(ids)) { (draft) throws(APIErrorDetail) in
            let people = try present(ids, in: draft)
            for person in people { draft.delete(OutreachEntities.contact, person.id) }
            return people
        }
    }

    /// Adds people again as they were (the undo of a deletion): names, enterprise, comments and
    /// delivery, into their year, which must still be there. A deleted record never comes back
    /// (docs/sync.md), so each is a new record; the answer is how many were added.
    public static func restorePeople(_ people: [OutreachContact]) -> RecordOperation<Int> {
        RecordOperation("outreach.restorePeople", reads: yearReads) { (draft) throws(APIErrorDetail) in
            guard people.count <= manyLimit else { throw tooMany(people.count) }
            guard !people.isEmpty else { throw nobody(0) }
            for person in people {
                _ = try draft.existing(OutreachEntities.year, person.yearId, what: "That year")
                var fields = OutreachFields.newContact(
                    year: person.yearId, first: person.firstName, last: person.lastName,
                    enterprise: person.enterpriseName, comments: person.comments)
                fields.merge(OutreachDelivery(person).fields) { $1 }
                _ = draft.create(OutreachEntities.contact, fields)
            }
            return people.count
        }
    }

    static func manyReads(_ ids: [UUID]) -> [OperationRead] {
        let wanted = Set(ids)
        return [.only(OutreachEntities.contact, derived: { _ in wanted })]
    }

    /// The people of `ids` that are there, in the order given; none at all is the refusal (the
    /// page was of people deleted since, or not this account's).
    static func present(_ ids: [UUID], in draft: OperationDraft) throws(APIErrorDetail) -> [OutreachContact] {
        guard ids.count <= manyLimit else { throw tooMany(ids.count) }
        var seen = Set<UUID>()
        let people = ids.compactMap { id -> OutreachContact? in
            guard seen.insert(id).inserted, let fields = draft.record(OutreachEntities.contact, id) else { return nil }
            return OutreachContact(id: id, fields: fields)
        }
        guard !people.isEmpty else { throw nobody(ids.count) }
        return people
    }

    static func nobody(_ count: Int) -> APIErrorDetail {
        count == 1
            ? OperationRefusal.notFound("That person")
            : APIErrorDetail(.notFound, "Those people are not there (they may have been deleted).")
    }

    static func tooMany(_ count: Int) -> APIErrorDetail {
        APIErrorDetail(.validationFailed, "Choose at most \(manyLimit) people at once (this was \(count)).")
    }
}

/// What takes back a change of many people (`OutreachOperations.undo`): their deliveries as they
/// were, or the people a deletion took away. A screen keeps it to offer "Undo".
public enum OutreachUndo: Sendable, Equatable, Codable {
    case deliveries([OutreachDelivery])
    case deletion([OutreachContact])

    /// How many people it puts back.
    public var count: Int {
        switch self {
        case .deliveries(let deliveries): deliveries.count
        case .deletion(let people): people.count
        }
    }

    /// What the change it takes back did: "Marked 3 people delivered.", "Deleted Ada Lovelace."
    public func doneSentence(delivered: Bool = true) -> String {
        switch self {
        case .deliveries(let deliveries):
            "Marked \(Self.people(deliveries.count)) \(delivered ? "delivered" : "not delivered")."
        case .deletion(let people):
            "Deleted \(people.count == 1 ? people[0].fullName : Self.people(people.count))."
        }
    }

    /// What the undo did: "Undone: 3 people are as they were.", "Undone: 2 people are back."
    public static func undoneSentence(_ count: Int, deletion: Bool) -> String {
        let verb = count == 1 ? "is" : "are"
        return "Undone: \(people(count)) \(verb) " + (deletion ? "back." : "as they were.")
    }

    static func people(_ count: Int) -> String { count == 1 ? "1 person" : "\(count) people" }
}

/// A person's delivery at one moment: what a tick of many answers, so it can be undone.
public struct OutreachDelivery: Sendable, Hashable, Codable {
    @LowercaseUUID public var id: UUID
    public let delivered: Bool
    public let deliveredAt: Date?

    public init(id: UUID, delivered: Bool, deliveredAt: Date?) {
        _id = LowercaseUUID(wrappedValue: id)
        self.delivered = delivered
        self.deliveredAt = delivered ? deliveredAt : nil
    }

    public init(_ person: OutreachContact) {
        self.init(id: person.id, delivered: person.delivered, deliveredAt: person.deliveredAt)
    }

    var fields: [String: JSONTree] {
        [
            OutreachFields.delivered: .bool(delivered),
            OutreachFields.deliveredAt: deliveredAt.map { .string(WireCoding.formatTimestamp($0)) } ?? .null,
        ]
    }
}
