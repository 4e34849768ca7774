import Foundation

// A push's body and answer, read and written without Foundation's coders (decoding a
// one-mutation push was a twentieth of the server's CPU, encoding a push a twelfth of a device's);
// `SyncDTOsJSONTests` holds them to the coders.

extension PushRequest: JSONReadable {
    /// Reads a push whose field values are strings, numbers, booleans or null, the values every
    /// Kith entity takes. Anything the decoder might read otherwise (a whole number written with a
    /// fraction or an exponent, `1.0`, which it reads as an integer; a list or an object; a key
    /// twice, of which it keeps the first) throws, and the server leaves that body to the decoder,
    /// as it does a body in error.
    public init(json: some Collection<UInt8>) throws {
        guard case .object(let body)? = JSONTree.parse(bytes: json, refusingDuplicateKeys: true),
            let clientID = body["clientId"]?.stringValue.flatMap(UUID.init(text:)),
            let mutations = body["mutations"]?.arrayValue
        else { throw Self.unread }
        self.init(clientId: clientID, mutations: try mutations.map(Mutation.init(tree:)))
    }

    static let unread = DecodingError.dataCorrupted(
        .init(codingPath: [], debugDescription: "a push this reader leaves to the decoder"))
}

extension Mutation {
    fileprivate init(tree: JSONTree) throws {
        guard case .object(let mutation) = tree,
            let mutationID = mutation["mutationId"]?.stringValue.flatMap(UUID.init(text:)),
            let entity = mutation["entity"]?.stringValue,
            let id = mutation["id"]?.stringValue.flatMap(UUID.init(text:)),
            let scope = mutation["scope"]?.stringValue,
            let op = mutation["op"]?.stringValue.flatMap(Operation.init(rawValue:)),
            let hlc = mutation["hlc"]?.stringValue.flatMap(HLC.init)
        else { throw PushRequest.unread }
        var fields: [String: JSONTree] = [:]
        switch mutation["fields"] {
        case nil, .null?: break
        case .object(let given)?:
            for (key, value) in given.members {
                switch value {
                case .string, .int, .bool, .null: fields[key] = value
                case .double(let number) where number != number.rounded(): fields[key] = value
                case .double, .array, .object: throw PushRequest.unread
                }
            }
        default: throw PushRequest.unread
        }
        self.init(mutationId: mutationID, entity: entity, id: id, scope: scope, op: op, fields: fields, hlc: hlc)
    }
}

extension PushRequest: JSONWritable {
    /// What a device sends (`JSONEncoder` was a twelfth of a device's CPU in a push).
    public func writeJSON(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        // Not a `LowercaseUUID`: the encoder writes Foundation's upper-case form.
        object.string("clientId", clientId.uuidString, &output)
        object.value("mutations", mutations, &output)
        object.end(&output)
    }
}

extension Mutation: JSONWritable {
    public func writeJSON(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        object.string("entity", entity, &output)
        object.value("fields", fields, &output)
        object.string("hlc", hlc.description, &output)
        object.string("id", id.lowercased, &output)
        object.string("mutationId", mutationId.lowercased, &output)
        object.string("op", op.rawValue, &output)
        object.string("scope", scope, &output)
        object.end(&output)
    }
}

extension PushResponse: JSONWritable {
    public func writeJSON(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        object.string("cursor", cursor, &output)
        object.value("results", results, &output)
        if let serverTime { object.integer("serverTime", serverTime, &output) }
        object.end(&output)
    }
}

extension MutationResult: JSONWritable {
    public func writeJSON(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        object.string("code", ifPresent: code, &output)
        object.string("field", ifPresent: field, &output)
        object.string("message", ifPresent: message, &output)
        object.string("mutationId", mutationId.lowercased, &output)
        if let record { object.value("record", record, &output) }
        object.string("status", status.rawValue, &output)
        object.end(&output)
    }
}

extension ChangeDTO: JSONWritable {
    public func writeJSON(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        object.bool("deleted", deleted, &output)
        object.string("deletedStamp", ifPresent: deletedStamp?.description, &output)
        object.string("entity", entity, &output)
        object.value("fields", fields, &output)
        object.string("id", id.lowercased, &output)
        object.string("scope", scope, &output)
        object.integer("seq", seq, &output)
        object.value("stamps", stamps.mapValues(\.description), &output)
        object.end(&output)
    }
}
