import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Every page renders from a model of its own through the real templates: what a person notices
/// of each (its title, the app the header marks as current, a form's limits, which are the ones
/// the server's declarations enforce), every page template has its model, and no template writes
/// a limit of its own.
@Suite("Pages from their models")
struct PageModelTests {
    typealias Browser = WebSessionTests.Browser

    /// A page as a person sees it.
    struct Expected {
        let path: String
        let title: String
        /// The header's links marked as the current page (`HomePagesTests.current`).
        let current: [String]
        var status: HTTPResponse.Status = .ok
        /// `(element id, attribute, value)`: a form field's `maxlength`, `minlength`, `min`, `max`.
        var limits: [(String, String, String)] = []
        /// Text the page shows.
        var says: [String] = []
    }

    // MARK: The declarations, read here as the rules state them

    static func maxLength(_ entity: EntityDeclaration, _ field: String) -> String {
        for declared in entity.fields where declared.name == field {
            if case .string(let maxLength, _) = declared.type { return String(maxLength) }
        }
        Issue.record("\(entity.name) declares no text field \(field)")
        return "?"
    }

    /// `min` and `max` of a number field.
    static func bounds(_ entity: EntityDeclaration, _ field: String) -> (String, String) {
        for declared in entity.fields where declared.name == field {
            switch declared.type {
            case .number(let range): return (Food.format(range.lowerBound), Food.format(range.upperBound))
            case .integer(let range): return (String(range.lowerBound), String(range.upperBound))
            default: break
            }
        }
        Issue.record("\(entity.name) declares no number field \(field)")
        return ("?", "?")
    }

    static func number(_ id: String, _ entity: EntityDeclaration, _ field: String) -> [(String, String, String)] {
        let (min, max) = bounds(entity, field)
        return [(id, "min", min), (id, "max", max)]
    }

    /// The food fields (food-fields.mustache) of a form writing `entity`.
    static func foodFields(_ entity: EntityDeclaration, prefix: String) -> [(String, String, String)] {
        [
            (prefix + "name", "maxlength", maxLength(entity, "name")),
            (prefix + "servingUnit", "maxlength", maxLength(entity, "servingUnit")),
        ]
            + number(prefix + "calories", entity, "calories") + number(prefix + "protein", entity, "protein")
            + number(prefix + "carbs", entity, "carbs") + number(prefix + "fat", entity, "fat")
            + number(prefix + "servingSize", entity, "servingSize")
    }

    static func monicaMaxLength(_ rules: [FieldRules], _ field: String) -> String {
        for rule in rules.first(where: { $0.name == field })?.rules ?? [] {
            if case .max(let length) = rule { return String(length) }
        }
        Issue.record("no max rule for \(field)")
        return "?"
    }

    static let personLimits = [
        ("firstName", "maxlength", maxLength(OutreachEntities.contact, "firstName")),
        ("lastName", "maxlength", maxLength(OutreachEntities.contact, "lastName")),
        ("enterpriseName", "maxlength", maxLength(OutreachEntities.contact, "enterpriseName")),
        ("comments", "maxlength", maxLength(OutreachEntities.contact, "comments")),
    ]

    // MARK: Reading a page

    /// An attribute of the form field with `id`.
    static func attribute(_ name: String, of id: String, in html: String) throws -> String? {
        let element = try Regex(#"<(input|textarea|select)\s[^>]*\bid=""# + id + #""[^>]*>"#)
        guard let tag = html.firstMatch(of: element).map({ String(html[$0.range]) }) else { return nil }
        let value = try Regex(#"\s"# + name + #"="([^"]*)""#)
        return tag.firstMatch(of: value).flatMap { $0.output[1].substring.map(String.init) }
    }

    static func check(_ expected: Expected, _ browser: inout Browser, _ client: any TestClientProtocol) async throws {
        let page = try await HomePagesTests.html(browser, client, expected.path)
        #expect(page.status == expected.status, "\(expected.path)")
        #expect(page.text.contains("<title>\(expected.title) · Kith</title>"), "\(expected.path)")
        #expect(HomePagesTests.current(page.text) == expected.current, "\(expected.path)")
        for (id, name, value) in expected.limits {
            #expect(try Self.attribute(name, of: id, in: page.text) == value, "\(expected.path): \(id) \(name)")
        }
        for text in expected.says {
            #expect(page.text.contains(text), "\(expected.path): \(text)")
        }
    }

    // MARK: Tests

    @Test(arguments: Engine.available)
    func everyPageSaysWhatItIsMarksItsAppAndTakesTheDeclaredLimits(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var family = try await FamilyPagesTests.founded(client)
            // The parent, Ada: an Outreach year with a person (no comments), a food, a meal, a reminder.
            let outreach = try await family.parent.get(client, "/outreach")
            let year = try #require(OutreachPagesTests.yearID(in: outreach.text)).lowercased
            let yearName = String(OutreachBook.calendarYear(of: server.clock.now))
            _ = try await family.parent.post(
                client, "/outreach/people",
                form: ["year": year, "firstName": "Ada", "lastName": "Lovelace", "enterpriseName": "Engines"])
            let list = try await family.parent.get(client, "/outreach")
            let person = try #require(list.text.firstMatch(of: /data-person="([0-9a-f-]{36})"/).map { String($0.1) })
            let today = LocalDate(server.clock.now, in: .gmt)
            _ = try await family.parent.post(
                client, "/food/items", form: ["date": today.description, "name": "Apple", "calories": "95"])
            _ = try await family.parent.post(
                client, "/food/meals",
                form: ["name": "Breakfast", "ingredients.0.name": "Oats", "ingredients.0.calories": "150"])
            let food = try await family.parent.get(client, "/food")
            let item = try #require(
                food.text.firstMatch(of: /href="\/food\/items\/([0-9a-f-]{36})"/).map { String($0.1) })
            let meal = try #require(
                food.text.firstMatch(of: /action="\/food\/meals\/([0-9a-f-]{36})\/log"/).map { String($0.1) })
            let created = try await family.parent.post(
                client, "/family/reminders",
                form: [
                    "title": "Pack the bag", "dueAt": FamilyPagesTests.tomorrow(server), "assigneeId": family.parentID,
                    "checklist.0.text": "Towel",
                ])
            let reminder = try #require(FamilyPagesTests.reminderID(created))

            let outreachLimits =
                Self.personLimits + [
                    ("new-year-name", "maxlength", Self.maxLength(OutreachEntities.year, "name")),
                    ("rename-year-name", "maxlength", Self.maxLength(OutreachEntities.year, "name")),
                ]
            let (goalMin, goalMax) = Self.bounds(NutritionEntities.goal, "dailyCalories")
            let familyName = String(FamilyLimits.nameLength.upperBound)
            let displayName = String(FamilyLimits.displayNameLength.upperBound)
            let (intervalMin, intervalMax) = (
                RepeatFrequency.weekly.intervals.lowerBound, RepeatFrequency.weekly.intervals.upperBound
            )
            let parentPages = [
                Expected(path: "/", title: "Home", current: ["nav-home"]),
                Expected(path: "/help", title: "Help", current: [], says: [#"id="help-link" aria-current="page""#]),
                Expected(
                    path: "/account", title: "Your account", current: ["nav-account"],
                    limits: [
                        ("newPassword", "minlength", String(CredentialRules.minimumPasswordCharacters)),
                        ("token-name", "maxlength", String(CredentialRules.maximumTokenNameLength)),
                    ]),
                Expected(path: "/nothing-here", title: "Page not found", current: [], status: .notFound),
                Expected(
                    path: "/outreach", title: "Outreach \(yearName)", current: ["nav-outreach"], limits: outreachLimits),
                Expected(
                    path: "/outreach/people/\(person)", title: "Ada Lovelace", current: ["nav-outreach"],
                    limits: Self.personLimits, says: ["No comments."]),
                Expected(
                    path: "/outreach/people/\(person)/delete", title: "Delete Ada Lovelace?", current: ["nav-outreach"]),
                Expected(
                    path: "/outreach/years/\(year)/delete", title: "Delete \(yearName)?", current: ["nav-outreach"],
                    says: [OutreachRules.lastYear.message.replacingOccurrences(of: "'", with: "&#39;")]),
                Expected(
                    path: "/food", title: "Food · \(NutritionFormat.medium(today))", current: ["nav-food"],
                    limits: Self.foodFields(NutritionEntities.item, prefix: "food-") + [
                        ("goal-calories-input", "min", goalMin), ("goal-calories-input", "max", goalMax),
                    ]),
                Expected(
                    path: "/food/items/\(item)", title: "Edit Apple", current: ["nav-food"],
                    limits: Self.foodFields(NutritionEntities.item, prefix: "food-")),
                // The confirmations are each app's own: Food's marks Food.
                Expected(path: "/food/items/\(item)/delete", title: "Delete Apple?", current: ["nav-food"]),
                Expected(path: "/food/meals/\(meal)/delete", title: "Delete Breakfast?", current: ["nav-food"]),
                Expected(
                    path: "/food/meals/new", title: "New meal", current: ["nav-food"],
                    limits: Self.foodFields(NutritionEntities.ingredient, prefix: "ingredient-0-") + [
                        ("meal-name", "maxlength", Self.maxLength(NutritionEntities.meal, "name"))
                    ]),
                Expected(path: "/family", title: "The Lovelaces", current: ["nav-family"]),
                Expected(
                    path: "/family/members", title: "Members · The Lovelaces", current: ["nav-family"],
                    limits: [("settings-name", "maxlength", familyName), ("my-name", "maxlength", displayName)]),
                Expected(path: "/family/notices", title: "Notices", current: ["nav-family"]),
                Expected(path: "/family/reminders/\(reminder)", title: "Pack the bag", current: ["nav-family"]),
                Expected(
                    path: "/family/reminders/new", title: "New reminder", current: ["nav-family"],
                    limits: [
                        ("reminder-title", "maxlength", Self.maxLength(FamilyEntities.reminder, "title")),
                        ("checklist-0-text", "maxlength", Self.maxLength(FamilyEntities.checklistItem, "text")),
                        ("reminder-repeatInterval", "min", String(intervalMin)),
                        ("reminder-repeatInterval", "max", String(intervalMax)),
                    ]),
                Expected(
                    path: "/family/reminders/\(reminder)/edit", title: "Edit Pack the bag", current: ["nav-family"],
                    limits: [("reminder-title", "maxlength", Self.maxLength(FamilyEntities.reminder, "title"))]),
                // Family's confirmations mark Family.
                Expected(
                    path: "/family/reminders/\(reminder)/delete", title: "Delete Pack the bag?", current: ["nav-family"]
                ),
                Expected(
                    path: "/family/members/\(family.childID)/remove", title: "Remove Byron?", current: ["nav-family"]),
                Expected(path: "/family/leave", title: "Leave The Lovelaces?", current: ["nav-family"]),
                Expected(path: "/contacts", title: "Contacts", current: ["nav-contacts"]),
                Expected(
                    path: "/contacts/1", title: "Contact", current: ["nav-contacts"],
                    limits: [
                        ("address-name", "maxlength", Self.monicaMaxLength(AddressesRoutes.rules, "name")),
                        ("address-street", "maxlength", Self.monicaMaxLength(AddressesRoutes.rules, "street")),
                        ("address-city", "maxlength", Self.monicaMaxLength(AddressesRoutes.rules, "city")),
                        ("address-province", "maxlength", Self.monicaMaxLength(AddressesRoutes.rules, "province")),
                        (
                            "address-postal-code", "maxlength",
                            Self.monicaMaxLength(AddressesRoutes.rules, "postal_code")
                        ),
                    ]),
                Expected(
                    path: "/contacts/new", title: "Add a contact", current: ["nav-contacts"],
                    limits: [
                        (
                            "contact-first-name", "maxlength",
                            Self.monicaMaxLength(ContactsRoutes.createRules, "first_name")
                        ),
                        (
                            "contact-last-name", "maxlength",
                            Self.monicaMaxLength(ContactsRoutes.createRules, "last_name")
                        ),
                        ("contact-nickname", "maxlength", Self.monicaMaxLength(ContactsRoutes.createRules, "nickname")),
                        (
                            "contact-description", "maxlength",
                            Self.monicaMaxLength(ContactsRoutes.createRules, "description")
                        ),
                        ("birthday-day", "min", "1"), ("birthday-day", "max", "31"),
                        ("birthday-year", "min", String(MonicaDate.years.lowerBound)),
                        ("birthday-year", "max", String(MonicaDate.years.upperBound)),
                        ("birthday-age-years", "min", "0"),
                        ("birthday-age-years", "max", String(ContactFormLimits.oldestAge)),
                        ("deceased-date", "min", "0001-01-01"), ("deceased-date", "max", "9999-12-31"),
                    ]),
                Expected(path: "/contacts/1/edit", title: "Edit contact", current: ["nav-contacts"]),
            ]
            for expected in parentPages { try await Self.check(expected, &family.parent, client) }

            // Someone in no family yet is asked to start or join one.
            var (eve, _) = try await NutritionPagesTests.signedUp(client, "eve@example.com")
            try await Self.check(
                Expected(
                    path: "/family", title: "Family", current: ["nav-family"],
                    limits: [
                        ("create-name", "maxlength", familyName), ("create-displayName", "maxlength", displayName),
                        ("join-code", "maxlength", String(JoinCode.maxTypedLength)),
                        ("join-displayName", "maxlength", displayName),
                    ]), &eve, client)

            // Signed out: the account pages, which mark no app.
            var visitor = Browser()
            let email = String(CredentialRules.maximumEmailLength)
            let password = String(CredentialRules.minimumPasswordCharacters)
            _ = try await visitor.get(client, "/forgot-password")
            _ = try await visitor.post(client, "/forgot-password", form: ["email": "eve@example.com"])
            let mail = try await Outbox(dataDirectory: server.config.dataDirectory).waitForMails(1)[0]
            let token = try #require(Outbox.resetToken(in: mail))
            let signedOutPages = [
                Expected(
                    path: "/signup", title: "Create your account", current: [],
                    limits: [("email", "maxlength", email), ("password", "minlength", password)],
                    says: ["At least \(password) characters"]),
                Expected(path: "/signin", title: "Sign in", current: [], limits: [("email", "maxlength", email)]),
                Expected(
                    path: "/forgot-password", title: "Forgot password", current: [],
                    limits: [("email", "maxlength", email)]),
                Expected(
                    path: "/reset-password?token=\(token)", title: "Choose a new password", current: [],
                    limits: [("newPassword", "minlength", password)]),
                Expected(path: "/nothing-here", title: "Page not found", current: [], status: .notFound),
            ]
            for expected in signedOutPages { try await Self.check(expected, &visitor, client) }
        }
    }

    /// The page templates: those that open with the head partial (the others are partials).
    static func pageTemplates() throws -> Set<String> {
        let directory = RepositoryPaths.root.appendingPathComponent("Sources/KithServer/Web/Templates")
        var pages: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where file.hasSuffix(".mustache") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            if text.hasPrefix("{{> head}}") { pages.insert(String(file.dropLast(".mustache".count))) }
        }
        return pages
    }

    @Test func everyPageTemplateHasAModelOfItsOwn() async throws {
        let models: [any PageModel.Type] = [
            ErrorModel.self, ConfirmModel.self, HomeModel.self, HelpModel.self, SignUpModel.self, SignInModel.self,
            ForgotPasswordModel.self, ResetPasswordModel.self, AccountModel.self, OutreachListModel.self,
            OutreachPersonModel.self, NutritionDayModel.self, NutritionItemModel.self, NutritionMealModel.self,
            FamilyHomeModel.self, FamilyStartModel.self, FamilyMembersModel.self, FamilyNoticesModel.self,
            ReminderModel.self, ReminderFormModel.self, CompleteAnywayModel.self, ContactsListModel.self,
            ContactModel.self,
            ContactFormModel.self,
        ]
        let templates = models.map { $0.template }
        #expect(Set(templates).count == templates.count, "one model per template")
        #expect(Set(templates) == (try Self.pageTemplates()))
        let renderer = try await WebRenderer.load(mapTiles: nil)
        for template in templates {
            #expect(renderer.library.getTemplate(named: template) != nil, "\(template)")
        }
    }

    /// A limit is written once, where the rule that enforces it is declared; templates read it
    /// from their model.
    @Test func noTemplateWritesALimitOfItsOwn() throws {
        let directory = RepositoryPaths.root.appendingPathComponent("Sources/KithServer/Web/Templates")
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where file.hasSuffix(".mustache") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let written = text.matches(of: /\s(maxlength|minlength|min|max)="[^"{]/).map { String(text[$0.range]) }
            #expect(written.isEmpty, "\(file): \(written)")
        }
    }
}
