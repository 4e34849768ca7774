import Foundation

/// A message on the live socket (`GET /v1/live`, docs/sync.md). JSON text frames, one object each.
///
/// - device -> server, only when the upgrade request carried no `Authorization` header:
///   `{"type":"auth","token":"<access token>"}` as the first message.
/// - server -> device: `{"type":"ready"}` once the socket is authenticated and subscribed (changes
///   committed after it are nudged); `{"type":"changed","scope":"user:…","seq":N}` after a change in
///   a scope the user can read; `{"type":"notice","notice":{…}}` when a notice reaches the user's
///   inbox; `{"type":"error","code":"…","message":"…"}` before the server closes.
public struct LiveMessage: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case auth, ready, changed, error, notice
    }

    public var type: Kind
    public var token: String?
    public var scope: String?
    public var seq: Int64?
    public var code: String?
    public var message: String?
    /// A `notice` message's notice, the moment the server delivers it (docs/family.md, "Notices").
    public var notice: NoticeDTO?

    public init(
        type: Kind, token: String? = nil, scope: String? = nil, seq: Int64? = nil, code: String? = nil,
        message: String? = nil
    ) {
        self.type = type
        self.token = token
        self.scope = scope
        self.seq = seq
        self.code = code
        self.message = message
    }

    public static func auth(token: String) -> LiveMessage { LiveMessage(type: .auth, token: token) }
    public static let ready = LiveMessage(type: .ready)
    public static func changed(scope: String, seq: Int64) -> LiveMessage { LiveMessage(type: .changed, scope: scope, seq: seq) }
    public static func notice(_ notice: NoticeDTO) -> LiveMessage {
        var message = LiveMessage(type: .notice)
        message.notice = notice
        return message
    }
    public static func error(code: String, message: String) -> LiveMessage {
        LiveMessage(type: .error, code: code, message: message)
    }

    /// The JSON text of one frame.
    public var text: String {
        // A `changed` nudge goes to every socket of a scope on every write, and is most of what a
        // server sends: written directly, as the encoder would write it (keys sorted).
        if type == .changed, let scope, let seq, token == nil, code == nil, message == nil, notice == nil {
            var text: [UInt8] = []
            text.reserveCapacity(48 + scope.utf8.count)
            text.append(contentsOf: #"{"scope":"#.utf8)
            JSONText.append(string: scope, to: &text)
            text.append(contentsOf: #","seq":"#.utf8)
            JSONText.append(integer: seq, to: &text)
            text.append(contentsOf: #","type":"changed"}"#.utf8)
            return String(decoding: text, as: UTF8.self)
        }
        // The wire's dates (a notice's), sorted keys.
        return String(decoding: (try? WireCoding.encoder().encode(self)) ?? Data(), as: UTF8.self)
    }

    /// Parses one frame's text; nil when it is not a live message.
    public init?(text: String) {
        guard let decoded = try? WireCoding.decoder().decode(LiveMessage.self, from: Data(text.utf8)) else { return nil }
        self = decoded
    }
}
