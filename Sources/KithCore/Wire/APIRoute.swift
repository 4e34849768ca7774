/// One route of the Kith API: its method and its path pattern (`/v1/tokens/{id}`). The server
/// registers it, KithKit calls it: defined once here, so the two can't drift
/// (`SDKRoutesTests` checks every path the SDK calls against what the server serves).
public struct APIRoute: Sendable, Hashable, CustomStringConvertible {
    public let method: String
    /// Absolute, with `{name}` for each parameter.
    public let pattern: String

    public init(_ method: String, _ pattern: String) {
        self.method = method
        self.pattern = pattern
    }

    /// The pattern without its leading `/`, as a URL relative to a server's base URL takes it.
    public var relativePath: String { String(pattern.drop { $0 == "/" }) }

    /// The path with each `{…}` replaced by the next of `parameters`, relative to the server's base.
    public func path(_ parameters: String...) -> String { path(parameters) }

    public func path(_ parameters: [String]) -> String {
        var remaining = parameters[...]
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: false).map { component in
            component.hasPrefix("{") ? (remaining.popFirst() ?? "") : String(component)
        }
        return components.joined(separator: "/")
    }

    public var description: String { "\(method) \(pattern)" }
}

/// The routes of `/v1`, grouped as the server's controllers are.
public enum KithAPI {
    public enum Auth {
        public static let signUp = APIRoute("POST", "/v1/auth/signup")
        public static let logIn = APIRoute("POST", "/v1/auth/login")
        public static let refresh = APIRoute("POST", "/v1/auth/refresh")
        public static let logOut = APIRoute("POST", "/v1/auth/logout")
        public static let changePassword = APIRoute("POST", "/v1/auth/password")
        public static let requestPasswordReset = APIRoute("POST", "/v1/auth/password-reset")
        public static let confirmPasswordReset = APIRoute("POST", "/v1/auth/password-reset/confirm")
        public static let me = APIRoute("GET", "/v1/me")
        public static let deleteAccount = APIRoute("DELETE", "/v1/me")
    }

    public enum Tokens {
        public static let create = APIRoute("POST", "/v1/tokens")
        public static let list = APIRoute("GET", "/v1/tokens")
        public static let revoke = APIRoute("DELETE", "/v1/tokens/{id}")
    }

    public enum Sync {
        public static let push = APIRoute("POST", "/v1/sync/push")
        public static let pull = APIRoute("GET", "/v1/sync/pull")
        /// The live socket (a WebSocket upgrade; a plain GET answers 426).
        public static let live = APIRoute("GET", "/v1/live")
    }

    public enum Food {
        /// Food search through the server's providers (docs/food-search.md): `?q=&limit=`.
        public static let search = APIRoute("GET", "/v1/food/search")
    }

    /// The caller's family (docs/family.md): membership is the server's, reminders are synced.
    public enum Family {
        public static let create = APIRoute("POST", "/v1/family")
        public static let show = APIRoute("GET", "/v1/family")
        public static let update = APIRoute("PATCH", "/v1/family")
        public static let leave = APIRoute("POST", "/v1/family/leave")
        public static let join = APIRoute("POST", "/v1/family/join")
        public static let createCode = APIRoute("POST", "/v1/family/codes")
        public static let listCodes = APIRoute("GET", "/v1/family/codes")
        public static let revokeCode = APIRoute("DELETE", "/v1/family/codes/{id}")
        public static let updateMember = APIRoute("PATCH", "/v1/family/members/{userId}")
        public static let removeMember = APIRoute("DELETE", "/v1/family/members/{userId}")

        public static let all = [create, show, update, leave, join, createCode, listCodes, revokeCode, updateMember, removeMember]
    }

    /// The signed-in user's notices (docs/family.md, "Notices").
    public enum Inbox {
        public static let list = APIRoute("GET", "/v1/inbox")
        public static let markRead = APIRoute("POST", "/v1/inbox/read")

        public static let all = [list, markRead]
    }

    /// Web Push (docs/push.md): the server's key and the caller's devices.
    public enum WebPush {
        public static let key = APIRoute("GET", "/v1/push/key")
        public static let subscribe = APIRoute("POST", "/v1/push/subscriptions")
        public static let list = APIRoute("GET", "/v1/push/subscriptions")
        public static let unsubscribe = APIRoute("DELETE", "/v1/push/subscriptions")
        public static let update = APIRoute("PATCH", "/v1/push/subscriptions/{id}")
        public static let remove = APIRoute("DELETE", "/v1/push/subscriptions/{id}")

        public static let all = [key, subscribe, list, unsubscribe, update, remove]
    }

    public static let all: [APIRoute] = [
        Auth.signUp, Auth.logIn, Auth.refresh, Auth.logOut, Auth.changePassword, Auth.requestPasswordReset,
        Auth.confirmPasswordReset, Auth.me, Auth.deleteAccount, Tokens.create, Tokens.list, Tokens.revoke, Sync.push,
        Sync.pull, Sync.live, Food.search,
    ] + Family.all + Inbox.all + WebPush.all
}
