import Hummingbird
import KithCore

extension RouterMethods {
    /// Registers `handler` for a route defined in KithCore (`KithAPI`), the same definition the SDK calls.
    @discardableResult
    func on(
        _ route: APIRoute, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        // The methods in `KithAPI` are the standard ones; a typo there is caught by `SDKRoutesTests`.
        on(RouterPath(route.pattern), method: HTTPRequest.Method(route.method) ?? .get, use: handler)
    }
}
