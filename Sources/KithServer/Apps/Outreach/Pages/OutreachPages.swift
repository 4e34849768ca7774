import Foundation
import Hummingbird
import KithCore
import NIOCore

/// The Outreach pages: a year's people with one-click delivery, years, people, CSV
/// import and export. Every page works with plain forms; app.js adds the one-click checkbox and
/// live updates over `/v1/live`.
struct OutreachPages {
    let outreach: OutreachService
    let operations: OperationWriter
    let renderer: WebRenderer
    let session: WebSessionMiddleware

    func addRoutes(to router: Router<AppRequestContext>) {
        let pages = router.group("outreach").add(middleware: session)
        pages.get(use: list)
        pages.post("select", use: selectYear)
        pages.post("years", use: addYear)
        pages.post("years/{id}/rename", use: renameYear)
        pages.get("years/{id}/delete", use: confirmYearDeletion)
        pages.post("years/{id}/delete", use: deleteYear)
        pages.post("people", use: addPerson)
        pages.get("people/{id}", use: personPage)
        pages.post("people/{id}", use: editPerson)
        pages.post("delivered", use: setDelivered)
        pages.post("many", use: changeMany)
        pages.post("undo", use: undo)
        pages.get("people/{id}/delete", use: confirmPersonDeletion)
        pages.post("people/{id}/delete", use: deletePerson)
        pages.post("import", use: importCSV)
        pages.get("export", use: exportCSV)
    }

    // MARK: The list

    /// `?year=ID` shows that year without remembering it (a page refreshed by a live nudge must not
    /// write); choosing a year in the selector posts to `select`, which remembers it. `q` and
    /// `show` search the list (`OutreachFilter`).
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let query = request.uri.formQuery
        let imported = OutreachImport(query: query)
        let year = query.get("year").flatMap(UUID.init(text:))
        return try await page(
            for: user, year: year, filter: Self.filter(query), request, context,
            show: { model in
                guard let imported else { return }
                model.notice = OutreachImport.sentence(imported)
                if !imported.skipped.isEmpty {
                    let more = imported.skippedCount - imported.skipped.count
                    model.importReport = .init(
                        skipped: imported.skipped.map(\.sentence),
                        more: more > 0 ? "And \(more) more \(more == 1 ? "line" : "lines")." : nil)
                }
            },
            notice: { book in OutreachNotice(query).flatMap { $0.text(in: book) } })
    }

    /// The list page for `year` (or the one to open), as `show` adjusts it (an error, a form's
    /// values), with the notice `notice` finds in the book.
    private func page(
        for user: AuthenticatedUser, year requested: UUID?, filter: OutreachFilter = OutreachFilter(),
        _ request: Request, _ context: AppRequestContext,
        status: HTTPResponse.Status = .ok, show: (inout OutreachListModel) -> Void = { _ in },
        notice: (OutreachBook) -> String? = { _ in nil }
    ) async throws -> Response {
        let (book, year) = try await outreach.open(for: user, requested: requested)
        var model = OutreachListModel(book: book, year: year, filter: filter, zone: WebTime.readerZone(request)?.zone)
        show(&model)
        if let text = notice(book) { model.notice = text }
        return try renderer.page(model, title: "Outreach \(year.name)", context: context, status: status)
    }

    /// Re-shows the list after a refused form, with what was typed (`typed` puts it in its form)
    /// and the reason: next to the person form's field it is about (`fieldErrors`), else on top.
    private func refused(
        _ error: AppError, user: AuthenticatedUser, year: UUID?, _ request: Request, _ context: AppRequestContext,
        fieldErrors: OutreachPersonErrors? = nil, typed: (inout OutreachListModel) -> Void
    ) async throws -> Response {
        guard error.status == .unprocessableContent else { throw error }
        return try await page(for: user, year: year, request, context, status: .unprocessableContent) { model in
            typed(&model)
            if let fieldErrors { model.newPersonErrors = fieldErrors } else { model.error = error.detail.message }
        }
    }

    @Sendable func selectYear(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let year = try Self.id(form["year"], "year")
        return try await operations.submit(OutreachOperations.selectYear(year), by: user, form: form) { _ in
            Self.listAddress(year)
        }
    }

    // MARK: Years

    @Sendable func addYear(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let source = form["copyFrom"].isEmpty ? nil : try Self.id(form["copyFrom"], "year")
        do {
            return try await operations.submit(
                OutreachOperations.addYear(form["name"], copying: source, show: true), by: user, form: form
            ) { year in Self.listAddress(year.id, notice: .yearAdded) }
        } catch let error as AppError {
            return try await refused(error, user: user, year: UUID(text: form["currentYear"]), request, context) {
                $0.newYear = .init(name: form["name"])
            }
        }
    }

    @Sendable func renameYear(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "year")
        let form = try await WebForm.read(request, context: context)
        do {
            let seen = form.seen(marker: OutreachFields.name).map { $0(OutreachFields.name) }
            let rename = OutreachOperations.renameYear(id, to: form[OutreachFields.name], seen: seen)
            return try await operations.submit(rename, by: user, form: form) { replaced in
                Self.listAddress(id, notice: .yearRenamed, replaced: replaced.map(\.field))
            }
        } catch let error as AppError {
            return try await refused(error, user: user, year: id, request, context) {
                $0.renameYear = .init(name: form["name"])
            }
        }
    }

    @Sendable func confirmYearDeletion(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let id = try Self.id(context, "year")
        let book = try await outreach.book(for: user)
        guard let year = book.year(id) else { throw AppError.notFound("That year") }
        let count = book.contacts.count { $0.yearId == id }
        let confirm = ConfirmModel(
            section: .outreach, question: "Delete the year \(year.name)?",
            consequence: count == 0
                ? "It has nobody in it."
                : "Its \(count == 1 ? "1 person" : "\(count) people") will be deleted with it, on all your devices.",
            action: "/outreach/years/\(id.lowercased)/delete", button: "Delete \(year.name)",
            cancel: "/outreach?year=\(id.lowercased)",
            refusal: book.years.count == 1 ? OutreachRules.lastYear.message : nil)
        return try renderer.page(confirm, title: "Delete \(year.name)?", context: context)
    }

    /// Deletes the year and shows the list of the year that opens next, saying what went.
    @Sendable func deleteYear(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "year")
        _ = try await WebForm.read(request, context: context)
        let book = try await outreach.book(for: user)
        guard let year = book.year(id) else { throw AppError.notFound("That year") }
        let count = book.contacts.count { $0.yearId == id }
        do {
            try await operations.apply(OutreachOperations.deleteYear(id), userID: user.id.lowercased)
        } catch let error as AppError where error.status == .unprocessableContent {
            return try await page(for: user, year: id, request, context, status: .unprocessableContent) {
                $0.error = error.detail.message
            }
        }
        let people = count == 0 ? "" : count == 1 ? " and its 1 person" : " and its \(count) people"
        return try await page(for: user, year: nil, request, context) {
            $0.notice = "Deleted the year \(year.name)\(people)."
            $0.canonicalPath = "/outreach"
        }
    }

    // MARK: People

    /// Adds a person to a year. Someone with the same name and enterprise already there is
    /// probably a mistake: the page asks first, and the form's "Add anyway" sends it again with
    /// `confirmDuplicate=yes`.
    @Sendable func addPerson(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let year = try Self.id(form["year"], "year")
        let typed = OutreachPersonForm(form: form)
        let problems = OutreachFormErrors.problems(in: form)
        guard problems.isEmpty else {
            return try await page(for: user, year: year, request, context, status: .unprocessableContent) {
                $0.newPerson = typed
                $0.newPersonErrors = OutreachPersonErrors(problems)
            }
        }
        do {
            let add = OutreachOperations.addPerson(
                to: year, first: form["firstName"], last: form["lastName"], enterprise: form["enterpriseName"],
                comments: form["comments"], askingFirst: form["confirmDuplicate"] != "yes")
            return try await operations.submit(add, by: user, form: form) { person in
                Self.listAddress(year, notice: .added, person: person.id)
            }
        } catch let error as AppError where error.detail.code == ErrorCode.samePerson.rawValue {
            // Someone like that is there already: the page asks, and "Add anyway" sends it again.
            return try await page(for: user, year: year, request, context, status: .conflict) {
                $0.newPerson = typed
                $0.duplicate = .init(question: error.detail.message, existing: error.detail.field ?? "")
            }
        } catch let error as AppError {
            return try await refused(
                error, user: user, year: year, request, context,
                fieldErrors: OutreachFormErrors.fieldErrors(error, form: form).map(OutreachPersonErrors.init)
            ) { $0.newPerson = typed }
        }
    }

    @Sendable func personPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let person = try await outreach.person(try Self.id(context, "person"), for: user)
        let model = OutreachPersonModel(person, zone: WebTime.readerZone(request)?.zone)
        return try renderer.page(model, title: person.fullName, context: context)
    }

    @Sendable func editPerson(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "person")
        let form = try await WebForm.read(request, context: context)
        var problems = OutreachFormErrors.problems(in: form)
        if problems.isEmpty {
            do {
                let person = try await outreach.person(id, for: user)
                // A form from before this page showed what it saw; one without says nothing (nil).
                let seen = form.seen(marker: OutreachFields.firstName).map(OutreachPersonForm.init(value:))
                let edit = OutreachOperations.editPerson(id, OutreachPersonForm(form: form).edits(seen: seen))
                return try await operations.submit(edit, by: user, form: form) { replaced in
                    Self.listAddress(person.yearId, notice: .saved, person: id, replaced: replaced.map(\.field))
                }
            } catch let error as AppError where error.status == .unprocessableContent {
                guard let fieldErrors = OutreachFormErrors.fieldErrors(error, form: form) else { throw error }
                problems = fieldErrors
            }
        }
        let person = try await outreach.person(id, for: user)
        var model = OutreachPersonModel(person, zone: WebTime.readerZone(request)?.zone)
        model.errors = OutreachPersonErrors(problems)
        model.form = OutreachPersonForm(form: form)
        // Still what the person first saw: a refusal must not make another tab's change look theirs.
        if let seen = form.seen(marker: OutreachFields.firstName) { model.seen = OutreachPersonForm(value: seen) }
        return try renderer.page(model, title: person.fullName, context: context, status: .unprocessableContent)
    }

    /// The Delivered checkbox: `set=<person id>:true|false` (one form around the list, so a
    /// 5,000-person page is not 5,000 forms). A script asking for JSON gets the person's new state
    /// and the year's progress; a plain form goes back to the list.
    @Sendable func setDelivered(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let parts = form["set"].split(separator: ":")
        guard parts.count == 2, let delivered = Bool(String(parts[1])) else {
            throw AppError(
                .unprocessableContent, .validationFailed, "set must be <person id>:true or :false.", field: "set")
        }
        let id = try Self.id(String(parts[0]), "person")
        // The answer is the person as they now are, read after the write (a replay's too).
        _ = try await operations.apply(
            OutreachOperations.setDelivered(id, delivered), userID: user.id.lowercased, key: form.writeKey,
            request: form.request
        ) { _ in "" }
        let person = try await outreach.person(id, for: user)
        guard request.headers[.accept]?.contains("application/json") == true else {
            return .redirect(to: Self.listAddress(person.yearId), type: .found)
        }
        let progress = try await outreach.progress(of: person.yearId, for: user)
        return try JSONResponse.make(
            DeliveryAnswer(
                id: id.lowercased, delivered: person.delivered,
                deliveredAt: person.deliveredAt.map(WireCoding.formatTimestamp),
                deliveredAtText: person.deliveredAt.map { WebTime.text($0, in: WebTime.readerZone(request)?.zone) }
                    ?? "",
                progress: progress))
    }

    struct DeliveryAnswer: Encodable {
        let id: String
        let delivered: Bool
        let deliveredAt: String?
        let deliveredAtText: String
        let progress: OutreachProgress
    }

    /// Many people at once (the boxes ticked in the list, `pick`): `change` deliver, undeliver or
    /// delete (not `action`, which would hide the form's own `action` from its script). The answer is the list again, as it was searched, saying what was done, with an
    /// Undo button that sends back what the change replaced. Under the form's write key, a form
    /// sent twice changes once and is answered alike.
    @Sendable func changeMany(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let year = try Self.id(form["year"], "year")
        let ids = form.all("pick").compactMap(UUID.init(text:))
        let filter = OutreachFilter(text: form["q"], delivery: .init(rawValue: form["show"]) ?? .all)
        guard !ids.isEmpty else {
            return try await page(
                for: user, year: year, filter: filter, request, context, status: .unprocessableContent
            ) {
                $0.error = "Tick the people to change first."
            }
        }
        let action = form["change"]
        let answer: String
        switch action {
        case "deliver", "undeliver":
            answer = try await operations.apply(
                OutreachOperations.setDelivered(ids, action == "deliver"), userID: user.id.lowercased,
                key: form.writeKey, request: form.request
            ) { Self.encoded(.deliveries($0)) }
        case "delete":
            answer = try await operations.apply(
                OutreachOperations.deletePeople(ids), userID: user.id.lowercased, key: form.writeKey,
                request: form.request
            ) { Self.encoded(.deletion($0)) }
        default:
            throw AppError(
                .unprocessableContent, .validationFailed, "change must be deliver, undeliver or delete.",
                field: "change")
        }
        let undo = Self.decodedUndo(answer)
        return try await page(for: user, year: year, filter: filter, request, context) { model in
            model.canonicalPath = Self.listAddress(year) + Self.searchQuery(filter)
            guard let undo else { return }
            model.notice =
                undo.count == 0
                ? "Nothing to change: they were all \(action == "deliver" ? "delivered" : "not delivered") already."
                : undo.doneSentence(delivered: action == "deliver")
            if undo.count > 0 { model.undo = .init(payload: answer) }
        }
    }

    /// Takes back a change of many (`undo`: what `changeMany` answered), then shows the list.
    @Sendable func undo(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let year = try Self.id(form["year"], "year")
        guard let undo = Self.decodedUndo(form["undo"]) else {
            throw AppError(.unprocessableContent, .validationFailed, "There is nothing to undo.", field: "undo")
        }
        let search = Self.searchQuery(OutreachFilter(text: form["q"], delivery: .init(rawValue: form["show"]) ?? .all))
        let deletion = if case .deletion = undo { true } else { false }
        return try await operations.submit(OutreachOperations.undo(undo), by: user, form: form) { count in
            Self.listAddress(year, notice: deletion ? .undoneDeletion : .undoneDeliveries) + "&count=\(count)" + search
        }
    }

    static func encoded(_ undo: OutreachUndo) -> String {
        (try? String(decoding: JSONEncoder().encode(undo), as: UTF8.self)) ?? ""
    }

    static func decodedUndo(_ text: String) -> OutreachUndo? {
        try? JSONDecoder().decode(OutreachUndo.self, from: Data(text.utf8))
    }

    @Sendable func confirmPersonDeletion(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let person = try await outreach.person(try Self.id(context, "person"), for: user)
        let confirm = ConfirmModel(
            section: .outreach, question: "Delete \(person.fullName)?",
            consequence: "They will be removed from this year's list, with their comments, on all your devices.",
            action: "/outreach/people/\(person.id.lowercased)/delete", button: "Delete \(person.fullName)",
            cancel: "/outreach/people/\(person.id.lowercased)")
        return try renderer.page(confirm, title: "Delete \(person.fullName)?", context: context)
    }

    /// Deletes the person and shows their year's list, saying who went.
    @Sendable func deletePerson(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "person")
        _ = try await WebForm.read(request, context: context)
        let person = try await operations.apply(OutreachOperations.deletePerson(id), userID: user.id.lowercased)
        let year = person.yearId.lowercased
        return try await page(for: user, year: person.yearId, request, context) {
            $0.notice = "Deleted \(person.fullName)."
            $0.canonicalPath = "/outreach?year=\(year)"
        }
    }

    // MARK: CSV

    @Sendable func importCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let year = try Self.id(form["year"], "year")
        do {
            return try await operations.submit(
                OutreachOperations.importCSV(form["csv"], into: year), by: user, form: form
            ) {
                done in "/outreach?year=\(year.lowercased)&" + done.query
            }
        } catch let error as AppError {
            return try await refused(error, user: user, year: year, request, context) {
                $0.importForm = .init(csv: form["csv"])
            }
        }
    }

    @Sendable func exportCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let asked = request.uri.formQuery.get("year")
        let requested = asked.flatMap(UUID.init(text:))
        let (book, year) = try await outreach.open(for: user, requested: requested)
        // A year that is not the user's is not there, rather than quietly another year's list.
        if asked != nil && year.id != requested { throw AppError.notFound("That year") }
        // With a byte-order mark: Excel reads a CSV file without one in the computer's legacy code
        // page, and "Müller" arrives as "MÃ¼ller" (import takes the mark too).
        let csv = Self.byteOrderMark + OutreachCSV.export(book.people(in: year.id))
        var headers = WebSecurityHeaders.all
        headers[.contentType] = "text/csv; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"outreach-\(Self.fileSafe(year.name)).csv\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: csv)))
    }

    // MARK: Helpers

    static let byteOrderMark = "\u{FEFF}"

    /// The list, which then says what happened (`OutreachNotice`): what a form redirects to.
    static func listAddress(
        _ year: UUID, notice: OutreachNotice.Kind? = nil, person: UUID? = nil, replaced: [String] = []
    ) -> String {
        var address = "/outreach?year=\(year.lowercased)"
        if let notice { address += "&notice=\(notice.rawValue)" }
        if let person { address += "&person=\(person.lowercased)" }
        if !replaced.isEmpty { address += "&replaced=" + replaced.sorted().joined(separator: ",") }
        return address
    }

    /// The list's search, from its address (`q`, `show`).
    static func filter(_ query: QueryParameters) -> OutreachFilter {
        OutreachFilter(
            text: query.get("q") ?? "", delivery: query.get("show").flatMap(OutreachFilter.Delivery.init) ?? .all)
    }

    /// The search as a list address carries it after `?year=…`: "&q=ada&show=delivered", or "".
    static func searchQuery(_ filter: OutreachFilter) -> String {
        var query = ""
        let text = filter.text.trimmedWhitespace
        if !text.isEmpty { query += "&q=" + FormEncoding.encode(text) }
        if filter.delivery != .all { query += "&show=" + filter.delivery.rawValue }
        return query
    }

    static func id(_ context: AppRequestContext, _ what: String) throws -> UUID {
        try id(context.parameters.get("id") ?? "", what)
    }

    static func id(_ text: String, _ what: String) throws -> UUID {
        guard let id = UUID(text: text) else { throw AppError.notFound("That \(what)") }
        return id
    }

    /// A year name as a file name: letters, digits, '-' and '_' kept, anything else '-'.
    static func fileSafe(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "-" })
    }
}
