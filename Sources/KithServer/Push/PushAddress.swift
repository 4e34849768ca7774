import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an IP address reaches, for the rule that the server pushes only to public addresses: a
/// push endpoint is a URL a user chose, and without this rule the server would knock on its own
/// network's doors for them (SSRF).
enum PushAddressClass: String, Equatable, Sendable {
    case publicAddress = "public"
    case loopback
    case privateUse = "private"
    case linkLocal = "link-local"
    /// 100.64.0.0/10, a carrier's NAT (RFC 6598).
    case sharedAddressSpace = "shared (CGNAT)"
    /// fc00::/7 (RFC 4193).
    case uniqueLocal = "unique-local"
    case multicast
    case unspecified
    /// Documentation, benchmarking, reserved and tunnelling ranges: nothing a push service lives on.
    case reserved

    /// Bytes of an IPv4 (4) or IPv6 (16) address; IPv4 inside IPv6 (mapped, compatible, NAT64,
    /// 6to4) is judged as the IPv4 address it reaches.
    init(_ bytes: [UInt8]) {
        switch bytes.count {
        case 4: self = Self.ipv4(bytes[0], bytes[1], bytes[2], bytes[3])
        case 16: self = Self.ipv6(bytes)
        default: self = .reserved
        }
    }

    private static func ipv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> PushAddressClass {
        switch (a, b, c) {
        case (0, _, _): return .unspecified
        case (10, _, _), (192, 168, _): return .privateUse
        case (172, _, _) where b & 0xF0 == 16: return .privateUse
        case (100, _, _) where b & 0xC0 == 64: return .sharedAddressSpace
        case (127, _, _): return .loopback
        case (169, 254, _): return .linkLocal
        case (192, 0, 0), (192, 0, 2), (192, 88, 99), (198, 51, 100), (203, 0, 113): return .reserved
        case (198, _, _) where b & 0xFE == 18: return .reserved
        case _ where a & 0xF0 == 224: return .multicast
        case _ where a >= 240: return .reserved
        default: return .publicAddress
        }
    }

    private static func ipv6(_ bytes: [UInt8]) -> PushAddressClass {
        let leadingZeros = bytes.prefix { $0 == 0 }.count
        if leadingZeros == 16 { return .unspecified }
        if leadingZeros == 15, bytes[15] == 1 { return .loopback }
        let embedded = { (at: Int) in ipv4(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]) }
        // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated but still routed by some stacks).
        if leadingZeros >= 10, bytes[10] == 0xFF, bytes[11] == 0xFF { return embedded(12) }
        if leadingZeros >= 12 { return embedded(12) }
        // 64:ff9b::/96, NAT64 to the IPv4 address at the end; 64:ff9b:1::/48 is for local use.
        if bytes[0...3] == [0, 0x64, 0xFF, 0x9B] {
            return bytes[4...11].allSatisfy { $0 == 0 } ? embedded(12) : .reserved
        }
        // 2002::/16, 6to4: the IPv4 address follows the prefix.
        if bytes[0] == 0x20, bytes[1] == 0x02 { return embedded(2) }
        switch bytes[0] {
        case 0xFF: return .multicast
        case 0xFC, 0xFD: return .uniqueLocal
        case 0xFE: return bytes[1] & 0xC0 == 0x80 ? .linkLocal : .reserved
        default: break
        }
        // 2001::/32 (Teredo) reaches any IPv4 address; 2001:db8::/32 is documentation.
        if bytes[0...3] == [0x20, 0x01, 0, 0] || bytes[0...3] == [0x20, 0x01, 0x0D, 0xB8] { return .reserved }
        // Only 2000::/3 is handed out as global unicast.
        return bytes[0] & 0xE0 == 0x20 ? .publicAddress : .reserved
    }
}

/// Addresses of a host by the system's resolver (getaddrinfo), as the connection would find them.
enum HostAddresses {
    /// The address `host` is written as, if it is a literal: every form the resolver would take
    /// as one ("127.1", "2130706433", "0x7f.0.0.1", "::ffff:127.0.0.1"), so none slips past as a
    /// name. No lookup is made.
    static func literal(_ host: String) -> [UInt8]? {
        (try? lookup(host, numericOnly: true))?.first
    }

    /// Every address `host` resolves to (a lookup, which may wait on DNS: run it off the
    /// cooperative pool).
    static func resolve(_ host: String) throws -> [[UInt8]] {
        try lookup(host, numericOnly: false)
    }

    private static func lookup(_ host: String, numericOnly: Bool) throws -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        if numericOnly { hints.ai_flags = AI_NUMERICHOST }
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw HostLookupError(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var addresses: [[UInt8]] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            if let address = entry.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                        withUnsafeBytes(of: ipv4.pointee.sin_addr) { addresses.append(Array($0)) }
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                        withUnsafeBytes(of: ipv6.pointee.sin6_addr) { addresses.append(Array($0)) }
                    }
                default:
                    break
                }
            }
            next = entry.pointee.ai_next
        }
        return addresses
    }

    /// An address's text, as a connection target takes it ("203.0.113.5", "2001:db8::1").
    static func text(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

struct HostLookupError: Error, CustomStringConvertible {
    let host: String
    let reason: String

    var description: String { "could not resolve \(host): \(reason)" }
}
