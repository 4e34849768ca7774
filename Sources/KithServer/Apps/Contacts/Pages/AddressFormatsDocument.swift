import Foundation
import Hummingbird
import KithCore

/// `GET /contacts/address-formats.json`: KithCore's address formats (labels and line order by
/// country), so the pages format addresses and label their form by the rules the iOS app uses,
/// instead of a copy of them in JavaScript.
enum AddressFormatsDocument {
    struct Body: Encodable {
        let standard: AddressFormat
        /// The countries that differ from `standard`, by upper-case ISO code.
        let countries: [String: AddressFormat]
    }

    /// Encoded once: the formats are constants.
    static let json: Data = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(Body(standard: .standard, countries: AddressFormat.allCountries))) ?? Data()
    }()

    @Sendable static func serve(_ request: Request, context: AppRequestContext) async throws -> Response {
        // A script asks for this: signed out is a status it can read, not a redirect to a page.
        guard context.user != nil else { throw AppError.unauthorized }
        var headers = WebSecurityHeaders.all
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: json)))
    }
}
