/// A value that writes its own JSON, the same JSON value `WireCoding`'s encoder writes (nil members
/// left out; a wire type's keys in the encoder's sorted order, a `JSONTree`'s in its own), without
/// the encoder's tree of boxes (encoding a token refresh's answer was 7 % of its CPU).
/// The server answers with it where a type has it; tests hold each wire type's writer to the
/// encoder, comparing the two texts parsed.
public protocol JSONWritable {
    func writeJSON(to output: inout [UInt8])
}

extension JSONWritable {
    /// The JSON text as bytes.
    @inlinable public var jsonBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        writeJSON(to: &output)
        return output
    }
}

/// Writes an object's members in the order given (the caller gives them sorted, as the wire's
/// encoder sorts keys): `{"a":…,"b":…}`. Inlinable, as the array writer below: a caller in another
/// module then gets code for its own value types, where unspecialized generic calls (metadata
/// looked up, an iterator through witness tables) were a fifth of writing a page of contacts.
@frozen public struct JSONObjectWriter {
    @usableFromInline var first = true

    @inlinable public init(_ output: inout [UInt8]) { output.append(UInt8(ascii: "{")) }

    /// `"key":` with the comma before it when it is not the first member; the caller writes the value.
    @inlinable public mutating func key(_ key: StaticString, _ output: inout [UInt8]) {
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        output.append(contentsOf: #"":"#.utf8)
    }

    @inlinable public mutating func string(_ key: StaticString, _ value: String, _ output: inout [UInt8]) {
        self.key(key, &output)
        JSONText.append(string: value, to: &output)
    }

    /// A member left out when `value` is nil, as the synthesized `Encodable` leaves it out.
    @inlinable public mutating func string(_ key: StaticString, ifPresent value: String?, _ output: inout [UInt8]) {
        if let value { string(key, value, &output) }
    }

    @inlinable public mutating func integer(_ key: StaticString, _ value: Int64, _ output: inout [UInt8]) {
        self.key(key, &output)
        JSONText.append(integer: value, to: &output)
    }

    @inlinable public mutating func bool(_ key: StaticString, _ value: Bool, _ output: inout [UInt8]) {
        self.key(key, &output)
        output.append(contentsOf: (value ? "true" : "false").utf8)
    }

    @inlinable public mutating func value(_ key: StaticString, _ value: some JSONWritable, _ output: inout [UInt8]) {
        self.key(key, &output)
        value.writeJSON(to: &output)
    }

    /// `"key":` for a key known only at run time (a presenter's list of members).
    @inlinable public mutating func key(named key: String, _ output: inout [UInt8]) {
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        JSONText.append(key: key, to: &output)
    }

    @inlinable public mutating func value(named key: String, _ value: some JSONWritable, _ output: inout [UInt8]) {
        self.key(named: key, &output)
        value.writeJSON(to: &output)
    }

    /// A member whose value is JSON text already written (a stored record's fields), copied as it is.
    @inlinable public mutating func json(_ key: StaticString, text: String, _ output: inout [UInt8]) {
        self.key(key, &output)
        output.append(contentsOf: text.utf8)
    }

    @inlinable public func end(_ output: inout [UInt8]) { output.append(UInt8(ascii: "}")) }
}

extension Array: JSONWritable where Element: JSONWritable {
    @inlinable public func writeJSON(to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        var first = true
        for element in self {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            element.writeJSON(to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }
}

extension Dictionary: JSONWritable where Key == String, Value: JSONWritable {
    /// Keys sorted, as the wire's encoder sorts them.
    public func writeJSON(to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        for (index, member) in sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONText.append(key: member.key, to: &output)
            member.value.writeJSON(to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}

extension String: JSONWritable {
    public func writeJSON(to output: inout [UInt8]) { JSONText.append(string: self, to: &output) }
}
