import Hummingbird
import Synchronization

/// Every route's method and path pattern, filled once the routes are registered, so an address
/// that exists can answer 405 with `Allow` for a method it does not take (the router itself only
/// knows "no such route": 404).
final class RouteTable: Sendable {
    private struct Route {
        let method: HTTPRequest.Method
        let components: [Substring]
    }

    private let routes = Mutex<[Route]>([])

    /// `"METHOD /path/{param}"` strings, as `buildApplication` collects them.
    func load(_ descriptions: [String]) {
        let parsed = descriptions.compactMap { description -> Route? in
            let parts = description.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let method = HTTPRequest.Method(String(parts[0])) else { return nil }
            return Route(method: method, components: parts[1].split(separator: "/"))
        }
        routes.withLock { $0 = parsed }
    }

    /// The methods some route takes at `path`, in a stable order; empty when no route matches it.
    func methods(at path: String) -> [HTTPRequest.Method] {
        let components = path.split(separator: "/")
        let found = routes.withLock { routes in
            routes.filter { Self.matches($0.components, components) }.map(\.method)
        }
        return Array(Set(found)).sorted { $0.rawValue < $1.rawValue }
    }

    /// A pattern component `{name}`, `:name` or `*` matches any one component; `**` the rest.
    private static func matches(_ pattern: [Substring], _ path: [Substring]) -> Bool {
        for (index, component) in pattern.enumerated() {
            if component == "**" { return true }
            guard index < path.count else { return false }
            let isParameter = component.hasPrefix("{") || component.hasPrefix(":") || component == "*"
            if !isParameter && component != path[index] { return false }
        }
        return pattern.count == path.count
    }
}
