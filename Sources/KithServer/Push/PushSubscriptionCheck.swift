import Foundation
import KithCore

/// The checks on what a page sends about a device, each refusal a 422 naming its field.
enum PushSubscriptionCheck {
    static func kinds(_ raw: [String]) throws -> Set<WebPushKind> {
        guard raw.count <= WebPushKind.allCases.count * 2 else {
            throw refusal("List each kind once; there are \(WebPushKind.allCases.count).", field: "kinds")
        }
        var kinds: Set<WebPushKind> = []
        for text in raw {
            guard let kind = WebPushKind(rawValue: text) else {
                let known = WebPushKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw refusal(
                    "\"\(text.prefix(40))\" is not a kind of notification; the kinds are \(known).", field: "kinds")
            }
            kinds.insert(kind)
        }
        return kinds
    }

    /// A device's name as stored: trimmed, one line, 1 to `WebPushLimits.nameLength` code points.
    static func name(_ raw: String) throws -> String {
        let trimmed = raw.trimmedWhitespace
        guard !trimmed.isEmpty else { throw refusal("Give the device a name.", field: "name") }
        guard trimmed.unicodeScalars.count <= WebPushLimits.nameLength,
            !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
        else {
            throw refusal("Use one line of at most \(WebPushLimits.nameLength) characters.", field: "name")
        }
        return trimmed
    }

    /// `expirationTime` in milliseconds since 1970, as `PushSubscription` gives it.
    static func expiry(_ raw: Double?) throws -> Int64? {
        guard let raw else { return nil }
        guard raw.isFinite, raw >= 0, raw < 253_402_300_800_000 else {
            throw refusal("expirationTime is milliseconds since 1970, or null.", field: "expirationTime")
        }
        return Int64(raw)
    }

    static func refusal(_ message: String, field: String) -> AppError {
        AppError(.unprocessableContent, .validationFailed, message, field: field)
    }
}

/// A name for a device nobody named: what its browser's User-Agent says ("Chrome on Android").
enum DeviceName {
    static func from(userAgent: String?) -> String {
        guard let agent = userAgent, !agent.isEmpty else { return "A browser" }
        let browser = browsers.first { agent.contains($0.token) }?.name
        let system = systems.first { agent.contains($0.token) }?.name
        switch (browser, system) {
        case (let browser?, let system?): return "\(browser) on \(system)"
        case (let browser?, nil): return browser
        case (nil, let system?): return "A browser on \(system)"
        case (nil, nil): return "A browser"
        }
    }

    /// The first that appears wins: Edge and Opera say "Chrome" too, and Chrome says "Safari".
    private static let browsers: [(token: String, name: String)] = [
        ("Edg/", "Edge"), ("EdgA/", "Edge"), ("EdgiOS/", "Edge"), ("OPR/", "Opera"),
        ("SamsungBrowser/", "Samsung Internet"),
        ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"), ("CriOS/", "Chrome"), ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    ]

    private static let systems: [(token: String, name: String)] = [
        ("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("CrOS", "ChromeOS"), ("Windows", "Windows"),
        ("Macintosh", "Mac"), ("Linux", "Linux"),
    ]
}
