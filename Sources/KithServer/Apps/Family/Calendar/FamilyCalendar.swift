import Crypto
import Foundation
import KithCore

/// A family's reminders as a CalDAV calendar of tasks (RFC 4791), one per member's calendar home,
/// so the phone's own Reminders or Tasks app shows them and raises their alarms itself. Each
/// reminder is a VTODO (`FamilyTaskMapping`); a task a member writes becomes
/// `ReminderOperations.saveTask`, applied as that member, so `FamilyRules` decide as on every
/// other surface and a refusal is a 403 with the rule's sentence.
struct FamilyCalendar: DAVCollection {
    let user: AuthenticatedUser
    let family: FamilyDTO
    let reminders: ReminderService
    let operations: OperationWriter
    let database: KithDatabase

    static let name = "family"
    static let largestTask = 256 * 1024

    var collectionKey: String { "family:" + family.id.lowercased() }
    var owner: DAVCollectionOwner { .family(family.id) }
    var memberSuffix: String { ".ics" }
    var path: String { DAVTarget.calendarHomePath(user) + Self.name + "/" }
    var displayName: String { family.name }
    var resourceType: XMLName { DAVName.cal("calendar") }
    var memberContentType: String { "text/calendar; charset=utf-8; component=VTODO" }
    var dataProperty: XMLName { DAVName.calendarData }
    var validDataPrecondition: XMLName { DAVName.validCalendarData }
    var maximumMemberSize: Int { Self.largestTask }
    /// A task comes back with the family's alarms and zone, so never as the phone sent it.
    var servesClientBodies: Bool { false }
    var timeZone: TimeZone { TimeZone(identifier: family.timeZone) ?? .gmt }

    func collectionProperties() -> [XMLName: XMLNode] {
        let components = DAVName.cal("supported-calendar-component-set")
        let data = DAVName.cal("supported-calendar-data")
        let zone = DAVName.cal("calendar-timezone")
        let now = reminders.now()
        return [
            components: XMLNode(
                components, children: [XMLNode(DAVName.cal("comp"), attributes: [("name", "VTODO")])]),
            data: XMLNode(
                data,
                children: [
                    XMLNode(
                        DAVName.cal("calendar-data"),
                        attributes: [("content-type", "text/calendar"), ("version", "2.0")])
                ]),
            zone: XMLNode(
                zone,
                text: CalendarDocument.write(
                    tasks: [], timeZone: timeZone, from: now.addingTimeInterval(-366 * 86_400),
                    to: now.addingTimeInterval(5 * 366 * 86_400))),
            DAVName.maxResourceSizeCal: XMLNode(DAVName.maxResourceSizeCal, text: String(Self.largestTask)),
            DAVName.cal("calendar-description"): XMLNode(
                DAVName.cal("calendar-description"), text: "The reminders of the family \(family.name)"),
            DAVName.dav("getcontenttype"): .dav("getcontenttype", text: "httpd/unix-directory"),
        ]
    }

    // MARK: Source

    /// Moves with every change of a record in the family's scope: their number and the sum of
    /// their change numbers (a change always takes a number above any the record had).
    func version() async throws -> String {
        try await database.read { [scope = family.scope] sql in
            let row = try await sql.raw(
                """
                SELECT COUNT(*) AS records, CAST(COALESCE(SUM(seq), 0) AS BIGINT) AS total FROM sync_records
                WHERE scope = \(bind: scope)
                """
            ).first()
            return
                "\(try row?.decode(column: "records", as: Int64.self) ?? 0):\(try row?.decode(column: "total", as: Int64.self) ?? 0)"
        }
    }

    func contents() async throws -> [String: String] {
        let snapshot = try await reminders.snapshot(for: user)
        var contents: [String: String] = [:]
        for reminder in snapshot.book.reminders {
            contents[reminder.id.lowercased] = FamilyTaskMapping.calendar(
                reminder, uid: "", recurrence: snapshot.recurrences[reminder.id], zone: snapshot.timeZone, extras: [])
        }
        return contents
    }

    // MARK: Members

    func bodies(of items: [DAVItem], format: DAVDataFormat) async throws -> [String: String] {
        let snapshot = try await reminders.snapshot(for: user)
        var bodies: [String: String] = [:]
        for item in items {
            guard let id = UUID(uuidString: item.objectID), let reminder = snapshot.reminder(id) else { continue }
            bodies[item.name] = FamilyTaskMapping.calendar(
                reminder, uid: item.uid, recurrence: snapshot.recurrences[id], zone: snapshot.timeZone,
                extras: (try? ContentLines.parse(item.extras)) ?? [])
        }
        return bodies
    }

    func matches(_ filter: DAVXMLElement, body: String) throws(DAVError) -> Bool {
        try CalendarFilter(filter).matches(body)
    }

    func write(_ body: [UInt8], name: String, existing: DAVItem?, state: DAVCollectionState) async throws -> DAVWrite {
        let task = try FamilyTaskMapping.task(in: body, precondition: validDataPrecondition)
        if let other = try await state.member(uid: task.uid), other.name != name {
            throw DAVError.forbidden(
                "Another task in this calendar already has the UID \(task.uid).", precondition: DAVName.noUIDConflictCal
            )
        }
        let snapshot = try await reminders.snapshot(for: user)
        let reminderID = existing.flatMap { UUID(uuidString: $0.objectID) }
        let current = reminderID.flatMap(snapshot.reminder)
        if existing != nil && current == nil { throw DAVError.stale }
        let state = try FamilyTaskMapping.state(
            of: task, current: current, recurrence: reminderID.flatMap { snapshot.recurrences[$0] },
            assignee: user.id.lowercased, zone: snapshot.timeZone, now: reminders.now())
        let operation = ReminderOperations.saveTask(reminderID, state, in: snapshot.scope)
        // The same body at the same name is one change: a client that lost the answer and sends
        // it again gets the reminder it made, not a second one.
        let key =
            "dav-"
            + SHA256.hash(data: Data((collectionKey + "/" + name + "/").utf8) + Data(body)).map {
                String(format: "%02x", $0)
            }.joined()
        let id: String
        do {
            id = try await operations.apply(operation, userID: user.id.lowercased, key: key) { $0.id.lowercased }
        } catch let error as AppError where error.status != .internalServerError {
            throw DAVError.forbidden(error.detail.message)
        }
        return DAVWrite(objectID: id, uid: task.uid, extras: ContentLines.write(FamilyTaskMapping.extras(of: task)))
    }

    func delete(_ item: DAVItem) async throws {
        guard let id = UUID(uuidString: item.objectID) else { return }
        do {
            try await operations.apply(ReminderOperations.delete(id, in: family.scope), for: user)
        } catch let error as AppError where error.status != .internalServerError && error.status != .notFound {
            throw DAVError.forbidden(error.detail.message)
        }
    }
}
