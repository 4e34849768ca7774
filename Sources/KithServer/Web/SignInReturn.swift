import Foundation
import Hummingbird

/// Back to where a person was after signing in: a page that needs a signed-in person sends the
/// browser to `/signin?next=<that page>` (with `ended=1` when a session cookie was there but its
/// session is over, so the page says so), and signing in goes to `next`. `next` is only ever a path
/// on this server, so a link can't send a person who signs in to another site.
enum SignInReturn {
    /// The sign-in page that returns to `path` (nil: to the home page).
    static func address(returningTo path: String?, ended: Bool) -> String {
        var query: [String] = []
        if let path = path.flatMap(safePath), path != "/" { query.append("next=" + FormEncoding.encode(path)) }
        if ended { query.append("ended=1") }
        return "/signin" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// `text` when it is a path on this server a person may be sent to after signing in: it starts
    /// with one "/" (not "//" or "/\", which browsers read as another host), holds no control
    /// characters and is not a sign-in, sign-up or sign-out page; else nil.
    static func safePath(_ text: String) -> String? {
        guard text.hasPrefix("/"), !text.hasPrefix("//"), !text.hasPrefix("/\\"), text.utf8.count <= 2_000,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        let path = text.split(separator: "?", maxSplits: 1).first.map(String.init) ?? text
        guard !["/signin", "/signup", "/signout"].contains(path) else { return nil }
        return text
    }

    /// The page a form was sent from, from its Referer (same-origin only, by the pages'
    /// Referrer-Policy): where to go back to when a form arrives after its session ended.
    static func referringPath(_ request: Request) -> String? {
        guard let referer = request.headers[.referer], let url = URL(string: referer) else { return nil }
        let path = url.path.isEmpty ? "/" : url.path
        return safePath(path + (url.query.map { "?" + $0 } ?? ""))
    }

    /// Whether `response` is a page's "sign in first" redirect.
    static func isSignInRedirect(_ response: Response) -> Bool {
        (response.status == .found || response.status == .seeOther) && response.headers[.location] == "/signin"
    }
}
