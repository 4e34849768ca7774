import Foundation
import Hummingbird
import KithCore

/// The Family pages at /family: found or join a family, its reminders, its members
/// and invite codes. Every action is a plain CSRF-checked form over `FamilyService` (membership)
/// and `ReminderService` (reminders, written as one more device of the member); family.js adds
/// the browser's time zone, more checklist rows, a live repeat preview and live updates.
struct FamilyPages {
    let families: FamilyService
    let reminders: ReminderService
    let pages: FamilyPageRenderer
    let session: WebSessionMiddleware

    func addRoutes(to router: Router<AppRequestContext>) {
        let family = router.group("family").add(middleware: session)
        family.get(use: home)
        family.post("create", use: create)
        family.post("join", use: join)
        family.get("members", use: membersPage)
        family.post("settings", use: updateFamily)
        family.post("name", use: renameMe)
        family.post("codes", use: createCode)
        family.post("codes/{id}/revoke", use: revokeCode)
        family.post("members/{id}/role", use: changeRole)
        family.get("members/{id}/remove", use: confirmRemoval)
        family.post("members/{id}/remove", use: remove)
        family.get("leave", use: confirmLeaving)
        family.post("leave", use: leave)
    }

    // MARK: Home: the reminders, or how to start

    /// The family's reminders with the filters of the query; without a family, create or join.
    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let snapshot: FamilySnapshot
        do {
            snapshot = try await reminders.snapshot(for: user)
        } catch let error as AppError where error.detail.code == ErrorCode.notInFamily.rawValue {
            return try await startPage(request, context)
        }
        let query = request.uri.formQuery
        let today = LocalDate(reminders.now(), in: snapshot.timeZone)
        let list = ReminderListView(snapshot: snapshot, now: reminders.now(), today: today)
        let (filter, choices) = ReminderListView.filter({ query.get($0) }, snapshot: snapshot)
        let model = FamilyHomeModel(
            snapshot, filter: choices, reminders: list.rows(filter), back: request.uri.description)
        return try await pages.render(model, title: snapshot.family.name, context)
    }

    /// Create or join: the browser's zone preselected (app.js keeps it in kith_tz), or the one a
    /// refused form had; `show` adds the refusal.
    private func startPage(
        _ request: Request, _ context: AppRequestContext, status: HTTPResponse.Status = .ok,
        typedZone: String? = nil, _ show: (inout FamilyStartModel) -> Void = { _ in }
    ) async throws -> Response {
        let cookieZone = request.cookies[WebTime.zoneCookie]?.value.removingPercentEncoding
        let zone =
            typedZone ?? cookieZone.flatMap { name in FamilyPageRenderer.timeZones.contains(name) ? name : nil } ?? ""
        var model = FamilyStartModel(zone: zone)
        show(&model)
        return try await pages.render(model, title: "Family", context, status: status)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        do {
            _ = try await families.create(
                CreateFamilyRequest(
                    name: form["name"], timeZone: TimeZoneInput.zone(form["timeZone"]), displayName: form["displayName"]
                ),
                user: user)
            return .redirect(to: "/family", type: .found)
        } catch let error as AppError where error.status.code >= 400 && error.status.code < 500 {
            return try await startPage(request, context, status: error.status, typedZone: form["timeZone"]) { model in
                model.create = .init(name: form["name"], timeZone: form["timeZone"], displayName: form["displayName"])
                if let errors = FamilyFieldErrors(error, among: ["name", "timeZone", "displayName"]) {
                    model.createErrors = errors
                } else {
                    model.createError = error.detail.message
                }
            }
        }
    }

    @Sendable func join(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        do {
            _ = try await families.join(
                JoinFamilyRequest(code: form["code"], displayName: form["displayName"]), user: user)
            return .redirect(to: "/family", type: .found)
        } catch let error as AppError where error.status.code >= 400 && error.status.code < 500 {
            var response = try await startPage(request, context, status: error.status) { model in
                model.join = .init(code: form["code"], displayName: form["displayName"])
                if let errors = FamilyStartModel.JoinErrors(error) {
                    model.joinErrors = errors
                } else {
                    model.joinError = error.detail.message
                }
            }
            response.headers.append(contentsOf: error.headers)
            return response
        }
    }

    // MARK: Members and codes

    @Sendable func membersPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        return try await members(user, context)
    }

    /// The members page as `show` adjusts it (a new code, a refusal).
    private func members(
        _ user: AuthenticatedUser, _ context: AppRequestContext, status: HTTPResponse.Status = .ok,
        _ show: (inout FamilyMembersModel) -> Void = { _ in }
    ) async throws -> Response {
        let snapshot = try await reminders.snapshot(for: user)
        var model = FamilyMembersModel(snapshot)
        if snapshot.isParent {
            let codes = try await families.codes(user: user).codes
            let today = LocalDate(reminders.now(), in: snapshot.timeZone)
            model.codes = codes.map { code in
                .init(
                    id: code.id, role: code.role == .parent ? "Parent" : "Child",
                    expires: FamilyFormat.timeAndDay(code.expiresAt, in: snapshot.timeZone, today: today))
            }
            model.hasCodes = !codes.isEmpty
        }
        show(&model)
        return try await pages.render(model, title: "Members · \(snapshot.family.name)", context, status: status)
    }

    /// Runs a members-page form: back to the page when it worked, the page with the refusal when not.
    private func membersForm(
        _ request: Request, _ context: AppRequestContext, fields: [String] = [],
        _ action: (WebForm, AuthenticatedUser) async throws -> Void
    ) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        do {
            try await action(form, user)
            return .redirect(to: "/family/members", type: .found)
        } catch let error as AppError
            where error.status.code >= 400 && error.status.code < 500 && error.status != .notFound
        {
            return try await members(user, context, status: error.status) { model in
                // The zone as typed stays in its field, with the refusal next to it.
                if !form["timeZone"].isEmpty { model.zone = ZoneField(value: form["timeZone"]) }
                if let errors = FamilyFieldErrors(error, among: fields) {
                    model.errors = errors
                } else {
                    model.error = error.detail.message
                }
            }
        }
    }

    @Sendable func updateFamily(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await membersForm(request, context, fields: ["name", "timeZone", "snoozeLimit"]) { form, user in
            // A form without the field (an older page) leaves the limit as it is.
            var limit: Int64?
            if !form["snoozeLimit"].isEmpty {
                guard let typed = Int64(form["snoozeLimit"]) else {
                    throw ReminderForm.refusal("A reminder may be snoozed 0 to 10 times.", field: "snoozeLimit")
                }
                limit = typed
            }
            _ = try await families.update(
                UpdateFamilyRequest(
                    name: form["name"], timeZone: TimeZoneInput.zone(form["timeZone"]), snoozeLimit: limit), user: user)
        }
    }

    @Sendable func renameMe(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await membersForm(request, context, fields: ["displayName"]) { form, user in
            _ = try await families.updateMember(
                user.id.lowercased, UpdateMemberRequest(displayName: form["displayName"]), user: user)
        }
    }

    @Sendable func changeRole(_ request: Request, context: AppRequestContext) async throws -> Response {
        let member = context.parameters.get("id") ?? ""
        return try await membersForm(request, context) { form, user in
            guard let role = FamilyRole(rawValue: form["role"]) else {
                throw AppError(.unprocessableContent, .validationFailed, "A role is parent or child.", field: "role")
            }
            _ = try await families.updateMember(member, UpdateMemberRequest(role: role), user: user)
        }
    }

    /// A new code, shown once on the page that answers (the server keeps only its hash).
    @Sendable func createCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        do {
            guard let role = FamilyRole(rawValue: form["role"]) else {
                throw AppError(
                    .unprocessableContent, .validationFailed, "A code is for a parent or a child.", field: "role")
            }
            let code = try await families.createCode(CreateJoinCodeRequest(role: role), user: user)
            let zone = try await reminders.snapshot(for: user).timeZone
            let expires = FamilyFormat.timeAndDay(code.expiresAt, in: zone, today: LocalDate(reminders.now(), in: zone))
            return try await members(user, context) {
                $0.newCode = .init(
                    code: code.code ?? "", role: role == .parent ? "a parent" : "a child", expires: expires)
            }
        } catch let error as AppError where error.status.code >= 400 && error.status.code < 500 {
            return try await members(user, context, status: error.status) { $0.error = error.detail.message }
        }
    }

    @Sendable func revokeCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        return try await membersForm(request, context) { _, user in try await families.revokeCode(id, user: user) }
    }

    @Sendable func confirmRemoval(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let snapshot = try await reminders.snapshot(for: user)
        let id = (context.parameters.get("id") ?? "").lowercased()
        guard let member = snapshot.family.members.first(where: { $0.userId.lowercased() == id }), id != snapshot.me
        else {
            throw AppError.notFound("This member")
        }
        let confirm = ConfirmModel(
            section: .family, question: "Remove \(member.displayName) from \(snapshot.family.name)?",
            consequence:
                "\(member.displayName) will no longer see the family's reminders, and their devices drop them. Reminders assigned to them stay.",
            action: "/family/members/\(id)/remove", button: "Remove \(member.displayName)", cancel: "/family/members")
        return try pages.renderer.page(confirm, title: "Remove \(member.displayName)?", context: context)
    }

    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> Response {
        let member = context.parameters.get("id") ?? ""
        return try await membersForm(request, context) { _, user in
            _ = try await families.removeMember(member, user: user)
        }
    }

    @Sendable func confirmLeaving(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let snapshot = try await reminders.snapshot(for: user)
        return try leavingPage(snapshot, context)
    }

    /// "Leave?", or why not (the last parent of others), the way Outreach refuses its last year.
    private func leavingPage(_ snapshot: FamilySnapshot, _ context: AppRequestContext, refusal: AppError? = nil) throws
        -> Response
    {
        let alone = snapshot.family.members.count == 1
        let confirm = ConfirmModel(
            section: .family, question: "Leave \(snapshot.family.name)?",
            consequence: alone
                ? "You are its last member: the family and all its reminders will be deleted."
                : "You will no longer see the family's reminders, and your devices drop them.",
            action: "/family/leave", button: "Leave the family", cancel: "/family/members",
            refusal: refusal?.detail.message)
        return try pages.renderer.page(
            confirm, title: "Leave \(snapshot.family.name)?", context: context, status: refusal?.status ?? .ok)
    }

    @Sendable func leave(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        _ = try await WebForm.read(request, context: context)
        do {
            try await families.leave(user: user)
            return .redirect(to: "/family", type: .found)
        } catch let error as AppError where error.detail.code == ErrorCode.lastParent.rawValue {
            return try leavingPage(try await reminders.snapshot(for: user), context, refusal: error)
        }
    }
}
