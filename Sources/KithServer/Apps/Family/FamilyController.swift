import Foundation
import Hummingbird
import KithCore

/// `/v1/family` (docs/family.md): reads the request, hands it to `FamilyService`, writes the answer.
struct FamilyController {
    let accounts: AccountService
    let families: FamilyService

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group().add(middleware: BearerAuthMiddleware(accounts: accounts))
            .on(KithAPI.Family.create, use: create)
            .on(KithAPI.Family.show, use: show)
            .on(KithAPI.Family.update, use: update)
            .on(KithAPI.Family.leave, use: leave)
            .on(KithAPI.Family.join, use: join)
            .on(KithAPI.Family.createCode, use: createCode)
            .on(KithAPI.Family.listCodes, use: listCodes)
            .on(KithAPI.Family.revokeCode, use: revokeCode)
            .on(KithAPI.Family.updateMember, use: updateMember)
            .on(KithAPI.Family.removeMember, use: removeMember)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(CreateFamilyRequest.self, context: context)
        return try JSONResponse.make(try await families.create(body, user: context.requireUser()), status: .created)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try JSONResponse.make(try await families.family(of: context.requireUser()))
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(UpdateFamilyRequest.self, context: context)
        return try JSONResponse.make(try await families.update(body, user: context.requireUser()))
    }

    @Sendable func leave(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await families.leave(user: context.requireUser())
        return Response(status: .noContent)
    }

    @Sendable func join(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(JoinFamilyRequest.self, context: context)
        return try JSONResponse.make(try await families.join(body, user: context.requireUser()))
    }

    @Sendable func createCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(CreateJoinCodeRequest.self, context: context)
        return try JSONResponse.make(try await families.createCode(body, user: context.requireUser()), status: .created)
    }

    @Sendable func listCodes(_ request: Request, context: AppRequestContext) async throws -> Response {
        try JSONResponse.make(try await families.codes(user: context.requireUser()))
    }

    @Sendable func revokeCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await families.revokeCode(try context.parameters.require("id"), user: context.requireUser())
        return Response(status: .noContent)
    }

    @Sendable func updateMember(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(UpdateMemberRequest.self, context: context)
        let userID = try context.parameters.require("userId")
        return try JSONResponse.make(try await families.updateMember(userID, body, user: context.requireUser()))
    }

    @Sendable func removeMember(_ request: Request, context: AppRequestContext) async throws -> Response {
        let userID = try context.parameters.require("userId")
        return try JSONResponse.make(try await families.removeMember(userID, user: context.requireUser()))
    }
}
