import Foundation
import Hummingbird
import KithCore

/// `/healthz`, `/metrics` and `/openapi.yaml`.
struct OperationsController {
    let database: KithDatabase
    /// `/metrics` tells request counts and timings per route: only whoever holds this token reads
    /// them (a Prometheus scrape config's `authorization`). Without one the endpoint is off.
    let metricsToken: String?

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("healthz", use: health)
        router.get("metrics", use: metrics)
        router.get("openapi.yaml", use: openAPI)
    }

    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            try await database.checkReachable()
        } catch {
            context.logger.error("health check: database unreachable: \(error)")
            return try JSONResponse.make(["status": "unavailable", "database": database.engine.rawValue], status: .serviceUnavailable)
        }
        guard database.writeHealth.canWrite else {
            context.logger.error("health check: the database's disk is full")
            return try JSONResponse.make(
                Health(
                    status: "unavailable", database: database.engine.rawValue, writable: false,
                    message: "The server has run out of disk space: it answers reads but can't save anything."),
                status: .serviceUnavailable)
        }
        return try JSONResponse.make(Health(status: "ok", database: database.engine.rawValue, writable: true))
    }

    /// What `/healthz` says: whether the server answers, on which engine, and whether it can write.
    struct Health: Encodable {
        let status: String
        let database: String
        let writable: Bool
        var message: String?
    }

    @Sendable func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let metricsToken else {
            throw AppError(.notFound, .notFound, "Metrics are off. Set KITH_METRICS_TOKEN to read them with that token.")
        }
        guard let presented = BearerAuthMiddleware.bearerToken(request), Tokens.constantTimeEquals(presented, metricsToken)
        else { throw AppError(.unauthorized, .unauthorized, "Send the metrics token: Authorization: Bearer <KITH_METRICS_TOKEN>.") }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: .init(bytes: PrometheusMetrics.registry.emitToBuffer())))
    }

    @Sendable func openAPI(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let text = OpenAPIDocument.text else {
            throw AppError(.internalServerError, .internalError, "The API description is missing from this build.")
        }
        return Response(
            status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
            body: .init(byteBuffer: .init(string: text)))
    }
}
