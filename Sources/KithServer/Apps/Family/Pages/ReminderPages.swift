import Foundation
import Hummingbird
import KithCore

/// The reminder pages under /family/reminders: new and edit (with a checklist and a daily, weekly
/// or monthly repeat whose next occurrences the form previews, and a place), a reminder's own page (tick its
/// checklist, complete and undo that for 30 s, snooze, see its place, delete after a
/// confirmation). Every write is a `ReminderOperations` change applied as the signed-in member
/// under the form's write key, so `FamilyRules` decide; a refusal is shown next to its field and
/// nothing changes.
struct ReminderPages {
    let reminders: ReminderService
    let operations: OperationWriter
    let pages: FamilyPageRenderer
    let session: WebSessionMiddleware

    /// How many occurrences the repeat preview lists.
    static let previewCount = 5

    func addRoutes(to router: Router<AppRequestContext>) {
        let group = router.group("family/reminders").add(middleware: session)
        group.get("new", use: newPage)
        group.post(use: create)
        group.get("occurrences", use: occurrences)
        group.get("{id}", use: reminderPage)
        group.get("{id}/edit", use: editPage)
        group.post("{id}/edit", use: edit)
        group.post("{id}/complete", use: complete)
        group.post("{id}/undo", use: undo)
        group.post("{id}/snooze", use: snooze)
        group.post("{id}/items/{item}", use: tick)
        group.get("{id}/delete", use: confirmDeletion)
        group.post("{id}/delete", use: delete)
    }

    // MARK: New and edit

    @Sendable func newPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let snapshot = try await reminders.snapshot(for: user)
        return try await formPage(ReminderForm(newFor: snapshot, now: reminders.now()), snapshot, editing: nil, context)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let snapshot = try await reminders.snapshot(for: user)
        let typed = ReminderForm(form: form)
        if !form["preview"].isEmpty { return try await formPage(typed, snapshot, editing: nil, context) }
        do {
            let create = ReminderOperations.create(try typed.draft(in: snapshot.timeZone), in: snapshot.scope)
            return try await operations.submit(create, by: user, form: form) { reminder in
                "/family/reminders/\(reminder.id.lowercased)"
            }
        } catch let error as AppError where error.status == .unprocessableContent {
            return try await formPage(typed, snapshot, editing: nil, context, error: error)
        }
    }

    @Sendable func editPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let (snapshot, reminder) = try await reminders.reminder(
            try FamilyPageRenderer.id(context, what: "That reminder"), for: user)
        let may = snapshot.permissions(reminder, now: reminders.now())
        guard may.editDetails || may.setPlace else {
            return .redirect(to: "/family/reminders/\(reminder.id.lowercased)", type: .found)
        }
        let shown = ReminderForm(editing: reminder, in: snapshot, now: reminders.now())
        return try await formPage(
            shown, snapshot, editing: reminder, seen: shown, detailsLocked: !may.editDetails, context)
    }

    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try FamilyPageRenderer.id(context, what: "That reminder")
        let form = try await WebForm.read(request, context: context)
        let (snapshot, reminder) = try await reminders.reminder(id, for: user)
        // A child on what a parent asked changes its place alone: the rest of the form is locked,
        // so not sent, and reads as the reminder has it; a field sent anyway is judged by the rules.
        let may = snapshot.permissions(reminder, now: reminders.now())
        let locked = !may.editDetails && may.setPlace
        var typed = ReminderForm(form: form)
        if locked {
            let stored = ReminderForm(editing: reminder, in: snapshot, now: reminders.now()).fields
            let kept = Dictionary(stored.map { ($0.name, $0.value) }) { first, _ in first }
            typed = ReminderForm(value: { form.contains($0) ? form[$0] : kept[$0] ?? "" })
        }
        // What the page showed; a form that does not say is judged against the reminder as it is.
        let seen = locked ? nil : form.seen(marker: ReminderFields.title).map(ReminderForm.init(value:))
        if !form["preview"].isEmpty {
            return try await formPage(typed, snapshot, editing: reminder, seen: seen, detailsLocked: locked, context)
        }
        do {
            let was = try seen.map { try $0.draft(in: snapshot.timeZone) }
            let edit = ReminderOperations.edit(
                id, to: try typed.draft(in: snapshot.timeZone), seen: was, in: snapshot.scope)
            return try await operations.submit(edit, by: user, form: form) { _ in "/family/reminders/\(id.lowercased)" }
        } catch let error as AppError where error.status == .unprocessableContent {
            return try await formPage(
                typed, snapshot, editing: reminder, seen: seen, detailsLocked: locked, context, error: error)
        }
    }

    /// The form (new, or editing `editing`) as typed, with the repeat's next occurrences and a refusal.
    private func formPage(
        _ form: ReminderForm, _ snapshot: FamilySnapshot, editing: FamilyReminder?, seen: ReminderForm? = nil,
        detailsLocked: Bool = false, _ context: AppRequestContext, error: AppError? = nil
    ) async throws -> Response {
        let now = reminders.now()
        var previewError: AppError?
        var upcoming: [Date] = []
        do {
            upcoming =
                try form.recurrence(in: snapshot.timeZone)?.occurrences(after: now, limit: Self.previewCount) ?? []
        } catch let problem as AppError {
            previewError = problem
        }
        let model = form.model(
            editing.map(ReminderFormModel.Purpose.editing) ?? .new, snapshot, occurrences: upcoming,
            today: LocalDate(now, in: snapshot.timeZone), seen: seen, detailsLocked: detailsLocked,
            error: error ?? previewError)
        let status: HTTPResponse.Status = error == nil ? .ok : .unprocessableContent
        return try await pages.render(model, title: model.heading, context, status: status)
    }

    /// The next occurrences of the repeat in the query (the form's own field names), for
    /// family.js's live preview: `{"occurrences": ["Mon 7 Dec, 07:30", …]}` or `{"error", "field"}`.
    @Sendable func occurrences(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let snapshot = try await reminders.snapshot(for: user)
        let query = request.uri.formQuery
        let form = ReminderForm(value: { query.get($0) ?? "" })
        do {
            let today = LocalDate(reminders.now(), in: snapshot.timeZone)
            let upcoming =
                try form.recurrence(in: snapshot.timeZone)?.occurrences(
                    after: reminders.now(), limit: Self.previewCount) ?? []
            return try JSONResponse.make(
                OccurrencesAnswer(
                    occurrences: upcoming.map { FamilyFormat.moment($0, in: snapshot.timeZone, today: today) }))
        } catch let error as AppError {
            return try JSONResponse.make(OccurrencesAnswer(error: error.detail.message, field: error.detail.field))
        }
    }

    struct OccurrencesAnswer: Encodable {
        var occurrences: [String] = []
        var error: String?
        var field: String?
    }

    // MARK: One reminder

    @Sendable func reminderPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let id = try FamilyPageRenderer.id(context, what: "That reminder")
        return try await showReminder(id, user, context)
    }

    /// The reminder's page, with a refusal above it when an action on it was refused.
    private func showReminder(
        _ id: UUID, _ user: AuthenticatedUser, _ context: AppRequestContext, error: AppError? = nil
    ) async throws -> Response {
        let (snapshot, reminder) = try await reminders.reminder(id, for: user)
        var model = ReminderModel(reminder, snapshot, now: reminders.now())
        model.error = error?.detail.message
        return try await pages.render(model, title: reminder.title, context, status: error?.status ?? .ok)
    }

    @Sendable func tick(_ request: Request, context: AppRequestContext) async throws -> Response {
        let item = try FamilyPageRenderer.id(context, "item", what: "That checklist item")
        return try await onItsPage(request, context) { id, scope, form in
            ReminderOperations.setItem(item, of: id, done: form[ReminderFields.done] == "true", in: scope)
        }
    }

    /// Completes it; with items not ticked, asks first on a page of its own (`anyway=1` then says
    /// to complete it all the same).
    @Sendable func complete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try FamilyPageRenderer.id(context, what: "That reminder")
        let form = try await WebForm.read(request, context: context)
        let back = FamilyPageRenderer.backAddress(form)
        return try await refusedOnItsPage(id, user, context) {
            let scope = try await reminders.families.family(of: user).scope
            let complete = ReminderOperations.complete(id, evenIfUnticked: form["anyway"] == "1", in: scope)
            do {
                return try await operations.submit(complete, by: user, form: form) { _ in back }
            } catch let error as AppError where error.detail.code == ErrorCode.untickedItems.rawValue {
                let (_, reminder) = try await reminders.reminder(id, for: user)
                let model = CompleteAnywayModel(reminder, back: back)
                return try await pages.render(model, title: "Complete \(reminder.title)?", context)
            }
        }
    }

    /// Takes back the reader's completion of a moment ago; a refusal (too late, not theirs) is
    /// shown on the reminder's page.
    @Sendable func undo(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await onItsPage(request, context) { id, scope, _ in ReminderOperations.undoCompletion(id, in: scope) }
    }

    /// Snoozes the due reminder for the minutes chosen, from its page or from its due notice.
    @Sendable func snooze(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await onItsPage(request, context) { id, scope, form in
            guard let minutes = Int64(form["minutes"]) else {
                throw ReminderForm.refusal("Choose how many minutes to snooze it for.", field: "minutes")
            }
            return ReminderOperations.snooze(id, minutes: minutes, in: scope)
        }
    }

    /// The operation a form asks for on the reminder in the path (made for the family's scope),
    /// applied as the signed-in member under the form's write key (a "Done" sent twice completes
    /// one occurrence, not two); then back where the form says, or the reminder's page with the
    /// rule's refusal (nothing changed).
    private func onItsPage(
        _ request: Request, _ context: AppRequestContext,
        _ operation: @escaping (UUID, String, WebForm) throws -> RecordOperation<FamilyReminder>
    ) async throws -> Response {
        let user = try context.requireUser()
        let id = try FamilyPageRenderer.id(context, what: "That reminder")
        let form = try await WebForm.read(request, context: context)
        return try await refusedOnItsPage(id, user, context) {
            let scope = try await reminders.families.family(of: user).scope
            let back = FamilyPageRenderer.backAddress(form)
            return try await operations.submit(try operation(id, scope, form), by: user, form: form) { _ in back }
        }
    }

    /// `action`'s answer, or the reminder's page with the rule's refusal (nothing changed).
    private func refusedOnItsPage(
        _ id: UUID, _ user: AuthenticatedUser, _ context: AppRequestContext, _ action: () async throws -> Response
    ) async throws -> Response {
        do {
            return try await action()
        } catch let error as AppError where error.status == .unprocessableContent {
            return try await showReminder(id, user, context, error: error)
        }
    }

    @Sendable func confirmDeletion(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let (snapshot, reminder) = try await reminders.reminder(
            try FamilyPageRenderer.id(context, what: "That reminder"), for: user)
        let id = reminder.id.lowercased
        var confirm = ConfirmModel(
            section: .family, question: "Delete the reminder \(reminder.title)?",
            consequence: "It goes for everyone in the family, with its checklist.",
            action: "/family/reminders/\(id)/delete", button: "Delete the reminder", cancel: "/family/reminders/\(id)")
        // Not offered to someone the rules refuse: the page says why instead of asking.
        confirm.refusal =
            ReminderOperations.delete(reminder.id, in: snapshot.scope).trial(
                over: snapshot.records, scope: snapshot.scope, now: reminders.now(), actor: snapshot.me,
                rules: FamilyRules.all)?.message
        return try pages.renderer.page(confirm, title: "Delete \(reminder.title)?", context: context)
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try FamilyPageRenderer.id(context, what: "That reminder")
        let form = try await WebForm.read(request, context: context)
        return try await refusedOnItsPage(id, user, context) {
            let scope = try await reminders.families.family(of: user).scope
            return try await operations.submit(ReminderOperations.delete(id, in: scope), by: user, form: form) {
                "/family"
            }
        }
    }
}
