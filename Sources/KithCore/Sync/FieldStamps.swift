/// A record's field stamps as stored, on the server (`sync_records.stamps`) and on a device (an
/// entity table's `_stamps`): a JSON object of each field's HLC text, keys sorted. Written and read
/// without JSON coders: the rules load records for every pushed mutation, and a pull stores
/// thousands.
public enum FieldStamps {
    /// `{"field":"stamp",…}`, fields sorted, so a record's stamps always read the same.
    public static func text(of stamps: [String: HLC]) -> String {
        var text: [UInt8] = [UInt8(ascii: "{")]
        text.reserveCapacity(2 + stamps.count * 48)
        for (index, stamp) in stamps.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            JSONText.append(key: stamp.key, to: &text)
            JSONText.append(string: stamp.value.description, to: &text)
        }
        text.append(UInt8(ascii: "}"))
        return String(decoding: text, as: UTF8.self)
    }

    /// The stamps `text` holds; nil when it is not an object of strings or a stamp is not an HLC.
    public static func parse(_ text: String) -> [String: HLC]? {
        guard let texts = JSONText.stringObject(text) else { return nil }
        var stamps: [String: HLC] = [:]
        for (field, stamp) in texts {
            guard let hlc = HLC(stamp) else { return nil }
            stamps[field] = hlc
        }
        return stamps
    }
}
