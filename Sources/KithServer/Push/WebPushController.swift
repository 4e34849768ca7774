import Foundation
import Hummingbird
import KithCore

/// `/v1/push` (docs/push.md): the server's public key, and the caller's devices. The pages' script
/// calls these with the session cookie (and the CSRF header on writes), an app with its token.
struct WebPushController {
    let accounts: AccountService
    let devices: WebPushDevices

    func addRoutes(to router: Router<AppRequestContext>) {
        router.on(KithAPI.WebPush.key, use: key)
        router.group().add(middleware: BearerOrSessionAuthMiddleware(accounts: accounts))
            .on(KithAPI.WebPush.subscribe, use: subscribe)
            .on(KithAPI.WebPush.list, use: list)
            .on(KithAPI.WebPush.unsubscribe, use: unsubscribe)
            .on(KithAPI.WebPush.update, use: update)
            .on(KithAPI.WebPush.remove, use: remove)
    }

    @Sendable func key(_ request: Request, context: AppRequestContext) async throws -> Response {
        try JSONResponse.make(WebPushKeyResponse(publicKey: try await devices.publicKey()))
    }

    @Sendable func subscribe(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(WebPushSubscribeRequest.self, context: context)
        let (device, created) = try await devices.subscribe(
            try context.requireUser(), body, userAgent: request.headers[.userAgent])
        return try JSONResponse.make(device, status: created ? .created : .ok)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        try JSONResponse.make(WebPushDeviceList(devices: try await devices.devices(of: context.requireUser())))
    }

    @Sendable func unsubscribe(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(WebPushUnsubscribeRequest.self, context: context)
        try await devices.remove(endpoint: body.endpoint, of: context.requireUser())
        return Response(status: .noContent)
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(WebPushDeviceUpdate.self, context: context)
        let id = try context.parameters.require("id")
        return try JSONResponse.make(try await devices.update(id, of: context.requireUser(), body))
    }

    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await devices.remove(try context.parameters.require("id"), of: context.requireUser())
        return Response(status: .noContent)
    }
}
