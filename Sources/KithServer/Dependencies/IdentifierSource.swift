import Foundation
import Synchronization

/// Where server code gets new identifiers and random choices, injected like the clock so tests
/// can fix them (`sequential`) and read exactly what was made.
public struct IdentifierSource: Sendable {
    /// A new UUID: record ids, session ids, Monica uuids, mail ids.
    public var uuid: @Sendable () -> UUID
    /// A random index in `0..<count` (`count` > 0): a new contact's avatar colour.
    public var index: @Sendable (_ count: Int) -> Int

    public init(uuid: @escaping @Sendable () -> UUID, index: @escaping @Sendable (_ count: Int) -> Int) {
        self.uuid = uuid
        self.index = index
    }

    public static let system = IdentifierSource(uuid: { UUID() }, index: { Int.random(in: 0..<max(1, $0)) })

    /// `00000000-0000-4000-8000-000000000001`, then `…2`, …; indexes always 0. For tests. Servers
    /// that share a database (or follow one another on it) each take their own `server` number,
    /// the ids' first eight digits (`00000002-0000-4000-8000-000000000001` for 2), so they never
    /// make the same id, nor the same web clock node (`web-00000002`).
    public static func sequential(server: UInt32 = 0) -> IdentifierSource {
        let counter = Counter()
        return IdentifierSource(
            uuid: {
                let n = counter.next()
                let s = UInt64(server)
                func byte(_ value: UInt64, _ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
                return UUID(
                    uuid: (
                        byte(s, 24), byte(s, 16), byte(s, 8), byte(s, 0), 0, 0, 0x40, 0, 0x80, 0,
                        byte(n, 40), byte(n, 32), byte(n, 24), byte(n, 16), byte(n, 8), byte(n, 0)
                    ))
            }, index: { _ in 0 })
    }

    /// The lower-case text form every table stores.
    public func text() -> String { uuid().lowercased }

    /// One of `choices` at random (`fallback` when there are none).
    public func pick<T>(_ choices: [T], or fallback: T) -> T {
        choices.isEmpty ? fallback : choices[min(choices.count - 1, max(0, index(choices.count)))]
    }
}

private final class Counter: Sendable {
    private let value = Mutex<UInt64>(0)

    func next() -> UInt64 {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
