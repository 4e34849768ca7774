import HTTPTypes
import Hummingbird

/// With an `https` public URL, tells browsers to use HTTPS only for this host for a year, so a
/// later `http://` link or a network that strips TLS can't downgrade the session cookie.
/// Not `includeSubDomains`: Kith does not know what else lives on the domain.
struct StrictTransportSecurityMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let value = "max-age=31536000"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        response.headers[.strictTransportSecurity] = Self.value
        return response
    }
}
