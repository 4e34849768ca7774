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

    /// `00000000-0000-4000-8000-000000000001`, then `…2`, …; indexes always 0. For tests.
    public static func sequential() -> IdentifierSource {
        let counter = Counter()
        return IdentifierSource(
            uuid: {
                let n = counter.next()
                func byte(_ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: n >> shift) }
                return UUID(
                    uuid: (
                        0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, byte(40), byte(32), byte(24), byte(16), byte(8), byte(0)
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
