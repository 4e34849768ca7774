import Foundation
import Testing

@testable import KithServer

/// Where the server may send a push: public addresses only (docs/push.md, "Where the server
/// sends"), whatever form an address is written in.
@Suite("Push endpoints: public addresses only")
struct PushEndpointRuleTests {
    static func kind(_ text: String) throws -> PushAddressClass {
        PushAddressClass(try #require(HostAddresses.literal(text), "\(text) is not an address literal"))
    }

    static let addresses: [(String, PushAddressClass)] = [
        ("8.8.8.8", .publicAddress), ("142.250.74.42", .publicAddress), ("2a00:1450:4007:80e::200a", .publicAddress),
        ("127.0.0.1", .loopback), ("127.255.255.254", .loopback), ("::1", .loopback),
        ("10.0.0.1", .privateUse), ("172.16.0.1", .privateUse), ("172.31.255.255", .privateUse),
        ("192.168.1.1", .privateUse), ("172.32.0.1", .publicAddress), ("172.15.255.255", .publicAddress),
        ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal), ("febf::1", .linkLocal),
        ("100.64.0.1", .sharedAddressSpace), ("100.127.255.255", .sharedAddressSpace), ("100.128.0.1", .publicAddress),
        ("fc00::1", .uniqueLocal), ("fd12:3456:789a::1", .uniqueLocal),
        ("224.0.0.1", .multicast), ("239.255.255.250", .multicast), ("ff02::1", .multicast),
        ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified), ("::", .unspecified),
        ("255.255.255.255", .reserved), ("240.0.0.1", .reserved), ("192.0.2.1", .reserved), ("198.51.100.7", .reserved),
        ("203.0.113.9", .reserved), ("198.18.0.1", .reserved), ("2001:db8::1", .reserved), ("fec0::1", .reserved),
        ("2001:0:4136:e378::1", .reserved),
        // IPv4 inside IPv6 is judged as the IPv4 address it reaches.
        ("::ffff:127.0.0.1", .loopback), ("::ffff:10.1.2.3", .privateUse), ("::ffff:169.254.169.254", .linkLocal),
        ("::ffff:8.8.8.8", .publicAddress), ("::127.0.0.1", .loopback), ("64:ff9b::a00:1", .privateUse),
        ("64:ff9b::808:808", .publicAddress), ("2002:c0a8:0101::1", .privateUse), ("2002:0808:0808::1", .publicAddress),
        // Every form the resolver takes as an IPv4 address.
        ("2130706433", .loopback), ("127.1", .loopback), ("0x7f.0.0.1", .loopback), ("0177.0.0.1", .loopback),
        ("0x0a000001", .privateUse),
    ]

    @Test func everyKindOfAddressIsToldApart() throws {
        for (text, expected) in Self.addresses {
            #expect(try Self.kind(text) == expected, "\(text)")
        }
    }

    @Test func namesAreNotLiterals() {
        #expect(HostAddresses.literal("fcm.googleapis.com") == nil)
        #expect(HostAddresses.literal("localhost") == nil)
    }

    static func refusal(_ endpoint: String, allowLoopback: Bool = false) -> String? {
        switch PushEndpointRule(allowLoopback: allowLoopback).check(endpoint) {
        case .success: nil
        case .failure(let refusal): refusal.description
        }
    }

    @Test func aSubscriptionsEndpointIsAnHTTPSURLOnAPublicHost() {
        for endpoint in [
            "https://fcm.googleapis.com/fcm/send/dXk:APA91b",
            "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
            "https://web.push.apple.com/QGx-abc", "https://8.8.8.8/push", "https://[2a00:1450:4007:80e::200a]/push",
        ] {
            #expect(Self.refusal(endpoint) == nil, "\(endpoint)")
        }
        let refused: [(String, String)] = [
            ("http://fcm.googleapis.com/fcm/send/x", "https"), ("ftp://example.com/x", "https"),
            ("fcm.googleapis.com/fcm/send/x", "absolute"), ("not a url", "absolute"), ("https:///x", "absolute"),
            ("https://user:secret@fcm.googleapis.com/x", "user name"),
            ("https://127.0.0.1/push", "loopback"), ("https://[::1]/push", "loopback"),
            ("https://2130706433/push", "loopback"), ("https://0x7f.1/push", "loopback"),
            ("https://10.0.0.5/push", "private"), ("https://192.168.0.10:8443/push", "private"),
            ("https://169.254.169.254/latest/meta-data", "link-local"), ("https://[fe80::1%25eth0]/push", "link-local"),
            ("https://100.64.1.1/push", "CGNAT"), ("https://[fd00::1]/push", "unique-local"),
            ("https://224.0.0.251/push", "multicast"), ("https://0.0.0.0/push", "unspecified"),
            ("https://[::ffff:127.0.0.1]/push", "loopback"), ("https://[::ffff:10.0.0.1]/push", "private"),
            ("https://localhost/push", "public host"), ("https://push.localhost/x", "public host"),
            ("https://intranet/push", "public host"),
            ("https://example.com/" + String(repeating: "a", count: 2048), "longer"),
        ]
        for (endpoint, reason) in refused {
            let refusal = Self.refusal(endpoint)
            #expect(refusal?.contains(reason) == true, "\(endpoint.prefix(80)): \(refusal ?? "accepted")")
        }
    }

    @Test func theTestSettingLetsLoopbackThroughAndNothingElse() {
        #expect(Self.refusal("http://127.0.0.1:8123/push/a", allowLoopback: true) == nil)
        #expect(Self.refusal("https://[::1]:8443/push", allowLoopback: true) == nil)
        #expect(Self.refusal("http://127.0.0.1:8123/push/a")?.contains("loopback") == true)
        #expect(Self.refusal("http://10.0.0.1/push", allowLoopback: true)?.contains("private") == true)
        #expect(Self.refusal("http://fcm.googleapis.com/x", allowLoopback: true)?.contains("https") == true)
        #expect(Self.refusal("http://8.8.8.8/x", allowLoopback: true)?.contains("https") == true)
    }

    @Test func atSendTimeEveryResolvedAddressMustBePublic() throws {
        let answers: [String: [[UInt8]]] = [
            "push.example.com": [[8, 8, 8, 8], [0x2a, 0] + [UInt8](repeating: 1, count: 14)],
            "rebound.example.com": [[8, 8, 4, 4], [10, 0, 0, 7]],
            "metadata.example.com": [[169, 254, 169, 254]],
        ]
        let rule = PushEndpointRule(allowLoopback: false) { host in answers[host] ?? [] }
        guard case .success(let target) = try rule.connectionAddress(for: "https://push.example.com/x") else {
            Issue.record("a public host was refused")
            return
        }
        #expect(target.address == "8.8.8.8", "the connection goes to the address checked")
        for (endpoint, reason) in [
            ("https://rebound.example.com/x", "10.0.0.7, a private address"),
            ("https://metadata.example.com/x", "169.254.169.254, a link-local address"),
            ("https://nowhere.example.com/x", "no address"), ("http://push.example.com/x", "https"),
            ("https://localhost/x", "public host"),
        ] {
            guard case .failure(let refusal) = try rule.connectionAddress(for: endpoint) else {
                Issue.record("\(endpoint) was not refused")
                continue
            }
            #expect(refusal.description.contains(reason), "\(endpoint): \(refusal)")
        }
        let loose = PushEndpointRule(allowLoopback: true)
        guard case .success(let local) = try loose.connectionAddress(for: "http://127.0.0.1:9/push/a") else {
            Issue.record("loopback was refused with the test setting")
            return
        }
        #expect(local.address == "127.0.0.1")
    }
}
