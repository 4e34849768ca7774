import Foundation
import Hummingbird
import KithCore
import NIOCore

/// The Outreach pages (seed 000): a year's people with one-click delivery, years, people, CSV
/// import and export. Every page works with plain forms; app.js adds the one-click checkbox and
/// live updates over `/v1/live`.
struct OutreachPages {
    let outreach: OutreachService
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
        pages.get("people/{id}/delete", use: confirmPersonDeletion)
        pages.post("people/{id}/delete", use: deletePerson)
        pages.post("import", use: importCSV)
        pages.get("export", use: exportCSV)
    }

    // MARK: The list

    /// `?year=ID` shows that year without remembering it (a page refreshed by a live nudge must not
    /// write); choosing a year in the selector posts to `select`, which remembers it.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let query = request.uri.formQuery
        var values: [String: Any] = [:]
        if let imported = query.get("imported").flatMap(Int.init) {
            values["notice"] = imported == 1 ? "Added 1 person from the file." : "Added \(imported) people from the file."
        }
        return try await page(for: user, year: query.get("year").flatMap(UUID.init(uuidString:)), context, values: values)
    }

    /// The list page for `year` (or the one to open), with `values` (an error, a form's values) on top.
    private func page(
        for user: AuthenticatedUser, year requested: UUID?, _ context: AppRequestContext,
        status: HTTPResponse.Status = .ok, values: [String: Any] = [:]
    ) async throws -> Response {
        let (book, year) = try await outreach.open(for: user, requested: requested)
        let view = OutreachListView(book: book, year: year)
        return try render(
            "outreach", title: "Outreach \(year.name)", context, status: status,
            values: view.values.merging(values) { _, given in given })
    }

    /// Renders an Outreach page, which loads outreach.js after app.js.
    private func render(
        _ template: String, title: String, _ context: AppRequestContext, status: HTTPResponse.Status = .ok,
        values: [String: Any]
    ) throws -> Response {
        var values = values
        values["pageScript"] = "outreach.js"
        values["live"] = true  // live.js, which the page script follows /v1/live with
        return try renderer.page(template, title: title, context: context, status: status, values: values)
    }

    /// Re-shows the list after a refused form, with the reason and what was typed.
    private func refused(
        _ error: AppError, user: AuthenticatedUser, year: UUID?, form: WebForm, fields: [String], _ context: AppRequestContext,
        formName: String
    ) async throws -> Response {
        guard error.status == .unprocessableContent else { throw error }
        var typed: [String: String] = [:]
        for field in fields { typed[field] = form[field] }
        let values: [String: Any] = ["error": error.detail.message, formName: typed, "open\(formName)": true]
        return try await page(for: user, year: year, context, status: .unprocessableContent, values: values)
    }

    @Sendable func selectYear(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let year = try Self.id(form["year"], "year")
        try await outreach.select(year, for: user)
        return Self.backToList(year)
    }

    // MARK: Years

    @Sendable func addYear(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let source = form["copyFrom"].isEmpty ? nil : try Self.id(form["copyFrom"], "year")
        do {
            let year = try await outreach.addYear(form["name"], copying: source, for: user)
            return Self.backToList(year.id)
        } catch let error as AppError {
            return try await refused(
                error, user: user, year: UUID(uuidString: form["currentYear"]), form: form, fields: ["name"], context,
                formName: "newYear")
        }
    }

    @Sendable func renameYear(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "year")
        let form = try await WebForm.read(request, context: context)
        do {
            try await outreach.renameYear(id, to: form["name"], for: user)
            return Self.backToList(id)
        } catch let error as AppError {
            return try await refused(error, user: user, year: id, form: form, fields: ["name"], context, formName: "renameYear")
        }
    }

    @Sendable func confirmYearDeletion(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let id = try Self.id(context, "year")
        let book = try await outreach.book(for: user)
        guard let year = book.year(id) else { throw AppError.notFound("That year") }
        let count = book.contacts.count { $0.yearId == id }
        return try renderer.page(
            "outreach-confirm", title: "Delete \(year.name)?", context: context,
            values: [
                "question": "Delete the year \(year.name)?",
                "consequence": count == 0
                    ? "It has nobody in it." : "Its \(count == 1 ? "1 person" : "\(count) people") will be deleted with it, on all your devices.",
                "action": "/outreach/years/\(id.lowercased)/delete", "button": "Delete \(year.name)",
                "cancel": "/outreach?year=\(id.lowercased)",
                "isLastYear": book.years.count == 1, "lastYearMessage": OutreachRules.lastYear.message,
            ])
    }

    @Sendable func deleteYear(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "year")
        _ = try await WebForm.read(request, context: context)
        do {
            try await outreach.deleteYear(id, for: user)
        } catch let error as AppError where error.status == .unprocessableContent {
            return try await page(for: user, year: id, context, status: .unprocessableContent, values: ["error": error.detail.message])
        }
        return .redirect(to: "/outreach", type: .found)
    }

    // MARK: People

    static let personFields = ["firstName", "lastName", "enterpriseName", "comments"]

    @Sendable func addPerson(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let year = try Self.id(form["year"], "year")
        do {
            try await outreach.addPerson(
                to: year, first: form["firstName"], last: form["lastName"], enterprise: form["enterpriseName"],
                comments: form["comments"], for: user)
            return Self.backToList(year)
        } catch let error as AppError {
            return try await refused(error, user: user, year: year, form: form, fields: Self.personFields, context, formName: "newPerson")
        }
    }

    @Sendable func personPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let person = try await outreach.person(try Self.id(context, "person"), for: user)
        return try render("outreach-person", title: person.fullName, context, values: OutreachListView.person(person))
    }

    @Sendable func editPerson(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "person")
        let form = try await WebForm.read(request, context: context)
        do {
            let person = try await outreach.editPerson(
                id, first: form["firstName"], last: form["lastName"], enterprise: form["enterpriseName"],
                comments: form["comments"], for: user)
            return Self.backToList(person.yearId)
        } catch let error as AppError where error.status == .unprocessableContent {
            let person = try await outreach.person(id, for: user)
            var values = OutreachListView.person(person)
            values["error"] = error.detail.message
            values["form"] = Dictionary(uniqueKeysWithValues: Self.personFields.map { ($0, form[$0]) })
            return try render("outreach-person", title: person.fullName, context, status: .unprocessableContent, values: values)
        }
    }

    /// The Delivered checkbox: `set=<person id>:true|false` (one form around the list, so a
    /// 5,000-person page is not 5,000 forms). A script asking for JSON gets the person's new state
    /// and the year's progress; a plain form goes back to the list.
    @Sendable func setDelivered(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let parts = form["set"].split(separator: ":")
        guard parts.count == 2, let delivered = Bool(String(parts[1])) else {
            throw AppError(.unprocessableContent, .validationFailed, "set must be <person id>:true or :false.", field: "set")
        }
        let id = try Self.id(String(parts[0]), "person")
        let (person, progress) = try await outreach.setDelivered(id, delivered, for: user)
        guard request.headers[.accept]?.contains("application/json") == true else { return Self.backToList(person.yearId) }
        return try JSONResponse.make(
            DeliveryAnswer(
                id: id.lowercased, delivered: person.delivered, deliveredAt: person.deliveredAt.map(WireCoding.formatTimestamp),
                deliveredAtText: person.deliveredAt.map(OutreachListView.timeText) ?? "", progress: progress))
    }

    struct DeliveryAnswer: Encodable {
        let id: String
        let delivered: Bool
        let deliveredAt: String?
        let deliveredAtText: String
        let progress: OutreachProgress
    }

    @Sendable func confirmPersonDeletion(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let person = try await outreach.person(try Self.id(context, "person"), for: user)
        return try renderer.page(
            "outreach-confirm", title: "Delete \(person.fullName)?", context: context,
            values: [
                "question": "Delete \(person.fullName)?",
                "consequence": "They will be removed from this year's list, with their comments, on all your devices.",
                "action": "/outreach/people/\(person.id.lowercased)/delete", "button": "Delete \(person.fullName)",
                "cancel": "/outreach/people/\(person.id.lowercased)",
            ])
    }

    @Sendable func deletePerson(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "person")
        _ = try await WebForm.read(request, context: context)
        let person = try await outreach.deletePerson(id, for: user)
        return Self.backToList(person.yearId)
    }

    // MARK: CSV

    @Sendable func importCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let year = try Self.id(form["year"], "year")
        do {
            let count = try await outreach.importCSV(form["csv"], into: year, for: user)
            return .redirect(to: "/outreach?year=\(year.lowercased)&imported=\(count)", type: .found)
        } catch let error as AppError {
            return try await refused(error, user: user, year: year, form: form, fields: ["csv"], context, formName: "importForm")
        }
    }

    @Sendable func exportCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let asked = request.uri.formQuery.get("year")
        let requested = asked.flatMap(UUID.init(uuidString:))
        let (book, year) = try await outreach.open(for: user, requested: requested)
        // A year that is not the user's is not there, rather than quietly another year's list.
        if asked != nil && year.id != requested { throw AppError.notFound("That year") }
        let csv = OutreachCSV.export(book.people(in: year.id))
        var headers = WebSecurityHeaders.all
        headers[.contentType] = "text/csv; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"outreach-\(Self.fileSafe(year.name)).csv\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: csv)))
    }

    // MARK: Helpers

    static func backToList(_ year: UUID) -> Response { .redirect(to: "/outreach?year=\(year.lowercased)", type: .found) }

    static func id(_ context: AppRequestContext, _ what: String) throws -> UUID {
        try id(context.parameters.get("id") ?? "", what)
    }

    static func id(_ text: String, _ what: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw AppError.notFound("That \(what)") }
        return id
    }

    /// A year name as a file name: letters, digits, '-' and '_' kept, anything else '-'.
    static func fileSafe(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "-" })
    }
}
