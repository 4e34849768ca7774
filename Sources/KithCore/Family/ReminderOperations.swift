import Foundation

/// Every change a member makes to their family's reminders (docs/family.md), defined once: the
/// device's `FamilyStore` and the server's /family pages both run these, in the family's scope
/// (docs/sync.md, "Operations"). Who may do what (`FamilyRules`: roles, a child's limits, the
/// undo window, snoozes) is judged by whoever applies the writes, on every write.
public enum ReminderOperations {
    static let reads = FamilyEntities.all

    /// A new pending reminder with its checklist, in the family `scope`. A repeating one is due at
    /// its first occurrence after now. Every line is checked before anything is written.
    public static func create(_ input: FamilyReminderInput, in scope: String) -> RecordOperation<FamilyReminder> {
        RecordOperation("family.createReminder", scope: .shared(scope), reads: reads) {
            (draft) throws(APIErrorDetail) in
            try check(input.checklist)
            let me = try draft.member()
            let id = draft.newID()
            let fields = ReminderFields.new(
                title: input.title, dueAt: try due(of: input, now: draft.now), assignee: input.assigneeId, creator: me,
                createdAt: draft.now, recurrence: input.recurrence
            ).merging(place(input.place, was: nil, now: draft.now)) { _, place in place }
            draft.upsert(FamilyEntities.reminder, id, fields)
            for (position, line) in input.checklist.enumerated() {
                _ = draft.create(
                    FamilyEntities.checklistItem,
                    ReminderFields.item(of: id, text: line.text, position: Int64(position)))
            }
            return try draft.reminder(id)
        }
    }

    /// Writes what the person changed: `input` against `seen` (what their form showed; nil: against
    /// the reminder as it stands), so a field someone else changed meanwhile and this person left
    /// alone is kept. The reminder's fields, then its checklist (lines edited, added, removed). A
    /// new repeat makes its first occurrence due.
    public static func edit(
        _ id: UUID, to input: FamilyReminderInput, seen: FamilyReminderInput? = nil, in scope: String
    )
        -> RecordOperation<FamilyReminder>
    {
        RecordOperation("family.editReminder", scope: .shared(scope), reads: reads) { (draft) throws(APIErrorDetail) in
            try check(input.checklist)
            let reminder = try draft.reminder(id)
            let was = seen ?? FamilyReminderInput(reminder, recurrence: draft.recurrence(of: id))
            var fields: [String: JSONTree] = [:]
            let title = input.title.trimmedWhitespace
            if title != was.title.trimmedWhitespace { fields[ReminderFields.title] = .string(title) }
            if input.assigneeId.lowercased() != was.assigneeId.lowercased() {
                fields[ReminderFields.assigneeId] = .string(input.assigneeId.lowercased())
            }
            if input.recurrence != was.recurrence {
                fields.merge(ReminderFields.repeating(input.recurrence)) { _, new in new }
                fields[ReminderFields.dueAt] = ReminderFields.timestamp(try due(of: input, now: draft.now))
            } else if input.recurrence == nil, let due = input.dueAt, due != was.dueAt {
                fields[ReminderFields.dueAt] = ReminderFields.timestamp(due)
            }
            if input.place != was.place {
                fields.merge(place(input.place, was: reminder.location, now: draft.now)) { _, place in place }
            }
            draft.upsert(FamilyEntities.reminder, id, fields)
            let seenLines = Dictionary(was.checklist.compactMap { line in line.id.map { ($0, line.text) } }) {
                first, _ in first
            }
            let kept = Set(input.checklist.compactMap(\.id))
            for (itemID, _) in seenLines
            where !kept.contains(itemID) && reminder.checklist.contains(where: { $0.id == itemID }) {
                draft.delete(FamilyEntities.checklistItem, itemID)
            }
            for (position, line) in input.checklist.enumerated() {
                let text = line.text.trimmedWhitespace
                if let itemID = line.id, let item = reminder.checklist.first(where: { $0.id == itemID }) {
                    var changed: [String: JSONTree] = [:]
                    if text != (seenLines[itemID] ?? item.text).trimmedWhitespace {
                        changed[ReminderFields.text] = .string(text)
                    }
                    if item.position != Int64(position) { changed[ReminderFields.position] = .int(Int64(position)) }
                    draft.upsert(FamilyEntities.checklistItem, itemID, changed)
                } else if line.id == nil {
                    _ = draft.create(
                        FamilyEntities.checklistItem, ReminderFields.item(of: id, text: text, position: Int64(position))
                    )
                }
            }
            return try draft.reminder(id)
        }
    }

    /// Changes the given fields of a pending reminder (nil leaves one as it is).
    public static func change(_ id: UUID, title: String?, dueAt: Date?, assignee: String?, in scope: String)
        -> RecordOperation<FamilyReminder>
    {
        RecordOperation("family.changeReminder", scope: .shared(scope), reads: reads) {
            (draft) throws(APIErrorDetail) in
            _ = try draft.reminder(id)
            draft.upsert(
                FamilyEntities.reminder, id, ReminderFields.edit(title: title, dueAt: dueAt, assignee: assignee))
            return try draft.reminder(id)
        }
    }

    /// Makes the reminder repeat by `recurrence` (nil: stop repeating, due once at its current due
    /// time), its other fields as they stand: an edit of the repeat alone. A new repeat makes its
    /// first occurrence after now due.
    public static func setRepeat(_ id: UUID, _ recurrence: Recurrence?, in scope: String) -> RecordOperation<
        FamilyReminder
    > {
        RecordOperation("family.setRepeat", scope: .shared(scope), reads: reads) { (draft) throws(APIErrorDetail) in
            var input = FamilyReminderInput(try draft.reminder(id), recurrence: draft.recurrence(of: id))
            input.recurrence = recurrence
            return try edit(id, to: input, in: scope).plan(&draft)
        }
    }

    /// Completes the reminder as the member making the change: a repeating one stays pending,
    /// due at its next occurrence, with its checklist unticked; any other is completed for good.
    /// With items not ticked it asks first: refused (`unticked_items`, naming them) unless
    /// `evenIfUnticked`, so every surface asks before it completes. What was left unticked is
    /// written with the completion, and the parents' notice says it.
    public static func complete(_ id: UUID, evenIfUnticked: Bool = false, in scope: String) -> RecordOperation<
        FamilyReminder
    > {
        RecordOperation("family.complete", scope: .shared(scope), reads: reads) { (draft) throws(APIErrorDetail) in
            let reminder = try draft.reminder(id)
            if !evenIfUnticked, !reminder.unticked.isEmpty {
                throw APIErrorDetail(.untickedItems, untickedQuestion(reminder.unticked.map(\.text)))
            }
            let completion = try ReminderFields.completion(
                of: reminder, recurrence: draft.recurrence(of: id), by: try draft.member(), at: draft.now
            ).get()
            // The reminder first: unticking is for the next occurrence, once this one is done.
            draft.upsert(FamilyEntities.reminder, id, completion.reminder)
            for item in completion.untick {
                draft.upsert(FamilyEntities.checklistItem, item, [ReminderFields.done: .bool(false)])
            }
            return try draft.reminder(id)
        }
    }

    /// Takes back the member's completion of a moment ago: pending again, due at the occurrence
    /// that was done (`FamilyRules`: only its completer, within `FamilyLimits.undoSeconds`).
    public static func undoCompletion(_ id: UUID, in scope: String) -> RecordOperation<FamilyReminder> {
        RecordOperation("family.undoCompletion", scope: .shared(scope), reads: reads) {
            (draft) throws(APIErrorDetail) in
            draft.upsert(
                FamilyEntities.reminder, id, try ReminderFields.undoCompletion(of: try draft.reminder(id)).get())
            return try draft.reminder(id)
        }
    }

    /// The assignee snoozes the due reminder for `minutes` (`FamilyRules`: once it is due, up to
    /// the family's limit, 1 to 1,440 minutes).
    public static func snooze(_ id: UUID, minutes: Int64, in scope: String) -> RecordOperation<FamilyReminder> {
        RecordOperation("family.snooze", scope: .shared(scope), reads: reads) { (draft) throws(APIErrorDetail) in
            let reminder = try draft.reminder(id)
            draft.upsert(FamilyEntities.reminder, id, ReminderFields.snooze(reminder, minutes: minutes, now: draft.now))
            return try draft.reminder(id)
        }
    }

    /// Deletes the reminder; its checklist goes with it (`FamilyRules`' cascade).
    public static func delete(_ id: UUID, in scope: String) -> RecordOperation<Void> {
        RecordOperation("family.deleteReminder", scope: .shared(scope), reads: reads) {
            (draft) throws(APIErrorDetail) in
            _ = try draft.reminder(id)
            draft.delete(FamilyEntities.reminder, id)
        }
    }

    /// Ticks or unticks one line of a reminder's checklist.
    public static func setItem(_ item: UUID, of id: UUID, done: Bool, in scope: String) -> RecordOperation<
        FamilyReminder
    > {
        RecordOperation("family.setItem", scope: .shared(scope), reads: reads) { (draft) throws(APIErrorDetail) in
            _ = try draft.checklistItem(item, of: id)
            draft.upsert(FamilyEntities.checklistItem, item, [ReminderFields.done: .bool(done)])
            return try draft.reminder(id)
        }
    }

    /// Adds a line at the end of a reminder's checklist.
    public static func addItem(_ text: String, to id: UUID, in scope: String) -> RecordOperation<FamilyReminder> {
        RecordOperation("family.addItem", scope: .shared(scope), reads: reads) { (draft) throws(APIErrorDetail) in
            let position = (try draft.reminder(id).checklist.map(\.position).max() ?? -1) + 1
            _ = draft.create(FamilyEntities.checklistItem, ReminderFields.item(of: id, text: text, position: position))
            return try draft.reminder(id)
        }
    }

    /// Removes one line of a reminder's checklist.
    public static func removeItem(_ item: UUID, from id: UUID, in scope: String) -> RecordOperation<FamilyReminder> {
        RecordOperation("family.removeItem", scope: .shared(scope), reads: reads) { (draft) throws(APIErrorDetail) in
            _ = try draft.checklistItem(item, of: id)
            draft.delete(FamilyEntities.checklistItem, item)
            return try draft.reminder(id)
        }
    }

    /// Sets (or replaces) where the reminder is to be done: the assignee's movements are tracked
    /// against this place from now on.
    public static func setPlace(_ id: UUID, _ place: FamilyReminderInput.Place, in scope: String) -> RecordOperation<
        FamilyReminder
    > {
        RecordOperation("family.setPlace", scope: .shared(scope), reads: reads) { (draft) throws(APIErrorDetail) in
            _ = try draft.reminder(id)
            draft.upsert(
                FamilyEntities.reminder, id,
                ReminderFields.location(place.point, accuracy: place.accuracy, at: draft.now))
            return try draft.reminder(id)
        }
    }

    /// A location reading of the assignee while the reminder is tracked: `MovementRule`'s outcome,
    /// and what it writes (nothing, the reading, or the reading with the movement that stops
    /// tracking). Refused (`not_tracked`) for a reminder with no place, no longer tracked, or completed.
    public static func report(_ point: GeoPoint, accuracy: Double, for id: UUID, in scope: String)
        -> RecordOperation<MovementRule.Outcome>
    {
        RecordOperation("family.report", scope: .shared(scope), reads: reads) { (draft) throws(APIErrorDetail) in
            let reminder = try draft.reminder(id)
            guard let reading = ReminderFields.reading(point, accuracy: accuracy, at: draft.now, for: reminder) else {
                throw notTracked(reminder)
            }
            draft.upsert(FamilyEntities.reminder, id, reading.fields)
            return reading.outcome
        }
    }

    /// "2 items are not ticked: Milk, Bread. Complete anyway?"
    public static func untickedQuestion(_ texts: [String]) -> String {
        let count = texts.count == 1 ? "1 item is" : "\(texts.count) items are"
        return "\(count) not ticked: \(texts.joined(separator: ", ")). Complete anyway?"
    }

    static func notTracked(_ reminder: FamilyReminder) -> APIErrorDetail {
        let why =
            if reminder.status == .completed {
                "This reminder is completed: its place is no longer tracked."
            } else if reminder.location == nil {
                "This reminder has no place yet: set one first."
            } else {
                "Tracking stopped when its person moved away: set the place again to track it."
            }
        return APIErrorDetail(.notTracked, why)
    }

    // MARK: Checks

    /// Every line against `family.checklistItem`'s limits, before anything is written; a problem
    /// names its line (`checklist.2`).
    static func check(_ lines: [FamilyReminderInput.Line]) throws(APIErrorDetail) {
        for (index, line) in lines.enumerated() {
            let fields = [ReminderFields.text: JSONTree.string(line.text.trimmedWhitespace)]
            if let problem = FamilyEntities.checklistItem.problems(in: fields, isCreation: false).first {
                throw APIErrorDetail(
                    code: problem.code, message: "Item \(index + 1): \(problem.message)", field: "checklist.\(index)")
            }
        }
    }

    /// When the input is due: its first occurrence after now when it repeats, else its due time.
    static func due(of input: FamilyReminderInput, now: Date) throws(APIErrorDetail) -> Date {
        if let recurrence = input.recurrence {
            guard let first = recurrence.next(after: now) else {
                throw APIErrorDetail(
                    .validationFailed, "This repeat has no occurrence.", field: ReminderFields.repeatStart)
            }
            return first
        }
        guard let due = input.dueAt else {
            throw APIErrorDetail(.validationFailed, "Choose when it is due.", field: ReminderFields.dueAt)
        }
        return due
    }

    /// The location fields a place writes when it differs from the stored one: a new place
    /// (tracking starts again), all of them null when the place was removed, none when unchanged.
    static func place(_ place: FamilyReminderInput.Place?, was stored: ReminderLocation?, now: Date) -> [String:
        JSONTree]
    {
        guard let place else {
            guard stored != nil else { return [:] }
            return ReminderFields.placeFieldNames.reduce(into: [:]) { $0[$1] = .null }
        }
        if let stored, stored.point == place.point, stored.accuracy == place.accuracy { return [:] }
        // A new reminder has no movement or reading to clear: it leaves them out rather than null.
        return ReminderFields.location(place.point, accuracy: place.accuracy, at: now).filter {
            stored != nil || $0.value != .null
        }
    }
}

extension OperationDraft {
    /// The family this draft reads, as its screens show it.
    var familyBook: FamilyBook { FamilyBook(records: syncRecords(FamilyEntities.all)) }

    /// The member making the change; refused when they are not one.
    func member() throws(APIErrorDetail) -> String {
        guard let actor, let me = familyBook.member(actor) else {
            throw APIErrorDetail(.notInFamily, "You are not in this family.")
        }
        return me.id
    }

    func reminder(_ id: UUID) throws(APIErrorDetail) -> FamilyReminder {
        guard let found = familyBook.reminders.first(where: { $0.id == id }) else {
            throw OperationRefusal.notFound("That reminder")
        }
        return found
    }

    func checklistItem(_ item: UUID, of reminder: UUID) throws(APIErrorDetail) -> ChecklistItem {
        guard let found = try self.reminder(reminder).checklist.first(where: { $0.id == item }) else {
            throw OperationRefusal.notFound("That checklist item")
        }
        return found
    }

    /// A reminder's repeat, when it has one.
    func recurrence(of id: UUID) -> Recurrence? {
        guard let fields = record(FamilyEntities.reminder, id),
            case .success(let recurrence) = FamilyRules.recurrence(fields, timeZone: familyBook.timeZone)
        else { return nil }
        return recurrence
    }
}
