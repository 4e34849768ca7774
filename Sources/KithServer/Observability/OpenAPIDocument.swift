import Foundation

/// The OpenAPI 3.1 description of `/v1`, shipped in the bundle and kept true by a test.
public enum OpenAPIDocument {
    public static let text: String? = Bundle.module.url(forResource: "openapi", withExtension: "yaml")
        .flatMap { try? String(contentsOf: $0, encoding: .utf8) }
}
