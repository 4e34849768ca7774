import Foundation

// A token refresh's body and answer, read and written without Foundation's coders;
// `AccountDTOsJSONTests` holds them to what the coders read and write.

extension UserDTO: JSONWritable {
    public func writeJSON(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        object.string("createdAt", WireCoding.formatTimestamp(createdAt), &output)
        object.string("email", email, &output)
        object.string("id", id.lowercased, &output)
        object.end(&output)
    }
}

extension AuthSessionResponse: JSONWritable {
    public func writeJSON(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        object.string("accessToken", accessToken, &output)
        object.string("deviceToken", ifPresent: deviceToken, &output)
        object.integer("expiresIn", Int64(expiresIn), &output)
        object.string("refreshToken", refreshToken, &output)
        object.value("user", user, &output)
        object.end(&output)
    }
}

extension RefreshRequest: JSONReadable {
    /// Reads `{"refreshToken": "…"}`; anything else (another type, a key twice, text that is not
    /// plain JSON) throws, and the server leaves it to the decoder, whose error names the problem.
    public init(json: some Collection<UInt8>) throws {
        guard let token = JSONTree.parse(bytes: json, refusingDuplicateKeys: true)?["refreshToken"]?.stringValue else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a refresh request"))
        }
        self.init(refreshToken: token)
    }
}
