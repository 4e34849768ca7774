/// A wire answer that reads its own JSON, faster than `JSONDecoder` and to the same result: a
/// client decodes such answers this way (a pull page, thousands of records a sync).
public protocol JSONReadable {
    init(json: some Collection<UInt8>) throws
}
