import Foundation
import Hummingbird
import KithCore

/// `GET /api/logs` (the account's audit log) and `GET /api/contacts/{id}/logs` (what it says
/// about one contact): paginated, oldest first, as Monica lists them.
struct AuditLogsRoutes {
    let repository: AuditLogRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("logs") { call in try await page(call, aboutContact: nil) }
        routes.get("contacts/{id}/logs") { call in try await page(call, aboutContact: try call.id()) }
    }

    private func page(_ call: MonicaRequest, aboutContact contactID: Int64?) async throws -> Response {
        let page = try call.page()
        let found = try await repository.page(account: call.account, aboutContact: contactID, page)
        let user = try call.context.requireUser()
        let author: JSONTree = ["id": .int(call.accountID), "name": .string(found.meName ?? user.email)]
        return PageEnvelope(
            items: found.entries.records.map { AuditLogPresenter.present($0, author: author) },
            total: found.entries.total, request: page, path: call.indexURL
        ).response
    }
}
