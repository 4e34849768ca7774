import Foundation

/// A hybrid logical clock timestamp: wall milliseconds, a counter for events within one
/// millisecond, and the node (device) that made it. Its string form sorts like the timestamp:
/// `<ms, 15 digits>-<counter, 5 digits>-<node>` (docs/sync.md).
public struct HLC: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let wallMillis: Int64
    public let counter: Int
    public let node: String

    public static let maxCounter = 99_999

    public init(wallMillis: Int64, counter: Int, node: String) {
        self.wallMillis = wallMillis
        self.counter = counter
        self.node = node
    }

    /// Parses the wire form; nil when it is not one.
    public init?(_ text: String) {
        // Split by bytes, not characters: a node may begin with a combining mark, which would
        // join the "-" before it into one character.
        let bytes = Array(text.utf8)
        let dash = UInt8(ascii: "-")
        guard bytes.count > 22, bytes[15] == dash, bytes[21] == dash,
            bytes[0..<15].allSatisfy(Self.isDigit), bytes[16..<21].allSatisfy(Self.isDigit),
            let wall = Int64(String(decoding: bytes[0..<15], as: UTF8.self)),
            let counter = Int(String(decoding: bytes[16..<21], as: UTF8.self))
        else { return nil }
        self.init(wallMillis: wall, counter: counter, node: String(decoding: bytes[22...], as: UTF8.self))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// Whether a writer may send this stamp: its node is at most `SyncLimits.maximumNodeLength`
    /// characters, since every field the write touches carries it to every reader. (Its wall and
    /// counter are bounded by their digits, and the wall by the server's clock.)
    public var isWithinLimits: Bool { node.unicodeScalars.count <= SyncLimits.maximumNodeLength }

    /// Written digit by digit: a device writes every stamp of every record a pull brings, and
    /// padding through intermediate strings was a twentieth of its CPU.
    public var description: String {
        var text: [UInt8] = []
        text.reserveCapacity(22 + node.utf8.count)
        Self.appendPadded(wallMillis, digits: 15, to: &text)
        text.append(UInt8(ascii: "-"))
        Self.appendPadded(Int64(counter), digits: 5, to: &text)
        text.append(UInt8(ascii: "-"))
        text.append(contentsOf: node.utf8)
        return String(decoding: text, as: UTF8.self)
    }

    /// `value` in decimal, zeros before it up to `digits`; wider values (and a negative one, which
    /// no clock makes) written whole, as `String(value)` would.
    private static func appendPadded(_ value: Int64, digits: Int, to text: inout [UInt8]) {
        var width = value < 0 ? 2 : 1
        var rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            width += 1
        }
        if width < digits { text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits - width)) }
        JSONText.append(integer: value, to: &text)
    }

    /// Later wall time wins, then the higher counter, then the node id, so every replica picks
    /// the same winner between two different timestamps.
    public static func < (lhs: HLC, rhs: HLC) -> Bool {
        (lhs.wallMillis, lhs.counter, lhs.node) < (rhs.wallMillis, rhs.counter, rhs.node)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = HLC(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an HLC timestamp: \(text)")
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// One node's clock. Local events and received timestamps both move it forward, so a timestamp
/// it hands out is later than everything the node has seen, whatever the wall clock says.
public struct HybridLogicalClock: Sendable, Equatable {
    public let node: String
    public private(set) var last: HLC

    public init(node: String, last: HLC? = nil) {
        self.node = node
        self.last = last ?? HLC(wallMillis: 0, counter: 0, node: node)
    }

    /// A timestamp for a local event at wall time `now` (milliseconds since 1970).
    public mutating func tick(now: Int64) -> HLC {
        advance(to: max(last.wallMillis, now), sameWallAs: [last])
    }

    /// Moves the clock back to `wall`, the server's time, after this node's clock ran ahead of it;
    /// never before `floor`, so each stamp handed out next is still later than every stamp kept.
    public mutating func rebase(to wall: Int64, notBefore floor: HLC?) {
        last = HLC(wallMillis: wall, counter: 0, node: node)
        if let floor, floor > last { last = HLC(wallMillis: floor.wallMillis, counter: floor.counter, node: node) }
    }

    /// Takes a timestamp received from another node into account; returns the clock's new time.
    @discardableResult
    public mutating func receive(_ remote: HLC, now: Int64) -> HLC {
        advance(to: max(last.wallMillis, remote.wallMillis, now), sameWallAs: [last, remote])
    }

    private mutating func advance(to wall: Int64, sameWallAs seen: [HLC]) -> HLC {
        let counters = seen.filter { $0.wallMillis == wall }.map(\.counter)
        var next = HLC(wallMillis: wall, counter: counters.isEmpty ? 0 : counters.max()! + 1, node: node)
        // A counter that would not fit its five digits moves the clock one millisecond ahead instead.
        if next.counter > HLC.maxCounter { next = HLC(wallMillis: wall + 1, counter: 0, node: node) }
        last = next
        return next
    }
}
