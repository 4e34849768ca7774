import Foundation
import KithCore

/// Which push endpoints the server will send to (docs/push.md, "Where the server sends"): `https`
/// URLs on a public address. Checked twice: when a device subscribes (the URL, and its host if
/// written as an address), and before every send (every address the host resolves to, then the
/// connection goes to the address checked, so a name that changes its answer between the check
/// and the connection cannot lead elsewhere). `allowLoopback` (`KITH_PUSH_ALLOW_LOOPBACK=1`,
/// for tests only) also lets `http` and loopback addresses through, for a stand-in push service
/// on the same machine; private and other addresses stay refused.
struct PushEndpointRule: Sendable {
    let allowLoopback: Bool
    var resolve: @Sendable (String) throws -> [[UInt8]] = HostAddresses.resolve

    /// A subscription's endpoint, checked: the URL, or why it is refused (the 422's message).
    func check(_ text: String) -> Result<URL, PushEndpointRefusal> {
        guard text.utf8.count <= WebPushLimits.endpointLength else {
            return .failure(.init("endpoint is longer than \(WebPushLimits.endpointLength) characters."))
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = Self.host(of: url),
            !host.isEmpty
        else {
            return .failure(.init("endpoint must be an absolute URL, as PushSubscription gives it."))
        }
        let httpsOnly = PushEndpointRefusal("endpoint must be an https URL.")
        guard scheme == "https" || scheme == "http" else { return .failure(httpsOnly) }
        guard url.user == nil, url.password == nil else {
            return .failure(.init("endpoint must not carry a user name or password."))
        }
        if let address = HostAddresses.literal(host) {
            let kind = PushAddressClass(address)
            guard allows(kind) else {
                return .failure(.init("endpoint must be on a public address, not a \(kind.rawValue) one."))
            }
            // Plain http only to a stand-in on this machine, when tests allow it.
            guard scheme == "https" || kind == .loopback else { return .failure(httpsOnly) }
        } else {
            // Names that only ever mean this machine or a local network's search domain.
            guard host.contains("."), host != "localhost", !host.hasSuffix(".localhost") else {
                return .failure(.init("endpoint must be on a public host."))
            }
            guard scheme == "https" else { return .failure(httpsOnly) }
        }
        return .success(url)
    }

    /// The address to connect to for a stored endpoint, checked again (the rule may have changed
    /// since it was stored) and its host resolved: the reason instead when the URL or any address
    /// the host resolves to is not one the server sends to. Throws when the name does not resolve.
    func connectionAddress(for endpoint: String) throws -> Result<(url: URL, address: String), PushEndpointRefusal> {
        let url: URL
        switch check(endpoint) {
        case .success(let checked): url = checked
        case .failure(let refusal): return .failure(refusal)
        }
        guard let host = Self.host(of: url) else { return .failure(.init("the endpoint has no host")) }
        let addresses = try resolve(host)
        guard let first = addresses.first else { return .failure(.init("\(host) resolves to no address")) }
        for address in addresses {
            let kind = PushAddressClass(address)
            guard allows(kind) else {
                return .failure(
                    .init("\(host) resolves to \(HostAddresses.text(address)), a \(kind.rawValue) address"))
            }
        }
        return .success((url, HostAddresses.text(first)))
    }

    func allows(_ kind: PushAddressClass) -> Bool {
        kind == .publicAddress || (allowLoopback && kind == .loopback)
    }

    /// The URL's host in lower case, without a trailing dot (`example.com.` is `example.com`).
    static func host(of url: URL) -> String? {
        guard var host = url.host?.lowercased() else { return nil }
        while host.hasSuffix(".") { host.removeLast() }
        return host
    }
}

struct PushEndpointRefusal: Error, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
