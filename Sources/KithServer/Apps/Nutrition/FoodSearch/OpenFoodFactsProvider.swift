import AsyncHTTPClient
import Foundation
import KithCore

/// Open Food Facts' full-text search (`/cgi/search.pl` with `json=1`): packaged foods, their numbers
/// per 100 g. Products without a name or without `energy-kcal_100g` are left out (many carry only
/// kJ, or nothing). Open Food Facts asks every client for a User-Agent naming the app and a contact.
public struct OpenFoodFactsProvider: FoodSearchProvider {
    public let name = "Open Food Facts"
    public let source = FoodSearchSource.openfoodfacts
    let settings: FoodSearchSettings.OpenFoodFacts
    let http: OutboundHTTP

    /// Asked for more than the limit, since some products are left out.
    static let maximumPageSize = 100

    init(settings: FoodSearchSettings.OpenFoodFacts, client: HTTPClient, userAgent: String, timeout: Duration) {
        self.settings = settings
        http = OutboundHTTP(client: client, provider: "Open Food Facts", userAgent: userAgent, timeout: timeout)
    }

    public func search(_ query: String, limit: Int) async throws -> [Food] {
        let parameters = OutboundHTTP.formEncoded([
            ("search_terms", query), ("search_simple", "1"), ("action", "process"), ("json", "1"),
            ("page", "1"), ("page_size", String(min(limit * 2, Self.maximumPageSize))),
            ("fields", "product_name,product_name_en,brands,nutriments"),
        ])
        let base = settings.baseURL.hasSuffix("/") ? String(settings.baseURL.dropLast()) : settings.baseURL
        let answer = try await http.send(.GET, "\(base)/cgi/search.pl?\(parameters)")
        guard (200..<300).contains(answer.status) else {
            throw FoodSearchProviderError.status(provider: name, code: answer.status)
        }
        let body: OpenFoodFactsSearchAnswer
        do {
            body = try JSONDecoder().decode(OpenFoodFactsSearchAnswer.self, from: Data(buffer: answer.body))
        } catch {
            throw FoodSearchProviderError.unreadable(provider: name, reason: "\(error)")
        }
        return body.products.compactMap { $0.value?.food }.prefix(limit).map { $0 }
    }
}

/// The part of a `/cgi/search.pl?json=1` answer Kith reads.
struct OpenFoodFactsSearchAnswer: Decodable {
    let products: [Lossy<OpenFoodFactsProduct>]
}

struct OpenFoodFactsProduct: Decodable {
    struct Nutriments: Decodable {
        let kcal: LenientNumber?
        let protein: LenientNumber?
        let carbs: LenientNumber?
        let fat: LenientNumber?

        enum CodingKeys: String, CodingKey {
            case kcal = "energy-kcal_100g"
            case protein = "proteins_100g"
            case carbs = "carbohydrates_100g"
            case fat = "fat_100g"
        }

        /// A value that is not a number (`""`, `null`) counts as absent, not as a broken product.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func number(_ key: CodingKeys) -> LenientNumber? {
                (try? container.decodeIfPresent(LenientNumber.self, forKey: key)) ?? nil
            }
            kcal = number(.kcal)
            protein = number(.protein)
            carbs = number(.carbs)
            fat = number(.fat)
        }
    }

    let productName: String?
    let productNameEnglish: String?
    let brands: String?
    let nutriments: Nutriments?

    enum CodingKeys: String, CodingKey {
        case productName = "product_name"
        case productNameEnglish = "product_name_en"
        case brands
        case nutriments
    }

    /// The product per 100 g, named "Name (First brand)"; nil without a name or kcal.
    var food: Food? {
        let name = [productName, productNameEnglish].compactMap { $0?.trimmedWhitespace }
            .first { !$0.isEmpty }
        guard let name, let kcal = nutriments?.kcal?.double else { return nil }
        let brand = brands?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces) ?? ""
        let fullName = brand.isEmpty || name.localizedCaseInsensitiveContains(brand) ? name : "\(name) (\(brand))"
        return Food(
            name: String(fullName.prefix(200)), calories: kcal, protein: nutriments?.protein?.double,
            carbs: nutriments?.carbs?.double, fat: nutriments?.fat?.double, servingSize: 100, servingUnit: "g")
    }
}
