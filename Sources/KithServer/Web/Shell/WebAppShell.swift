import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// What makes the web app installable and usable offline, served from the site's root because a
/// service worker controls only the pages under its own path: `/sw.js` (Static/sw.js with the
/// shell's version written in), `/manifest.webmanifest`, and `/apple-touch-icon.png`, where iOS
/// looks for a home-screen icon before reading any page. docs/web-app.md says how the pieces fit.
struct WebAppShell: Sendable {
    let serviceWorker: ByteBuffer
    let manifest: ByteBuffer
    let touchIcon: ByteBuffer
    /// A digest of every static file: it changes whenever a style, a script or an icon does, so
    /// browsers install the new worker, which fetches the new shell and drops the old one.
    let version: String

    static let versionPlaceholder = "__KITH_SHELL_VERSION__"

    init(staticDirectory: String) throws {
        let root = URL(fileURLWithPath: staticDirectory, isDirectory: true)
        var digest = SHA256()
        for file in try Self.files(under: root) {
            digest.update(data: Data(file.relativePath.utf8))
            digest.update(data: try Data(contentsOf: file.url))
        }
        version = digest.finalize().prefix(8).map { String(format: "%02x", $0) }.joined()
        let worker = try String(contentsOf: root.appendingPathComponent("sw.js"), encoding: .utf8)
        guard worker.contains(Self.versionPlaceholder) else {
            throw WebRendererError("Static/sw.js lacks its \(Self.versionPlaceholder) placeholder")
        }
        serviceWorker = ByteBuffer(string: worker.replacingOccurrences(of: Self.versionPlaceholder, with: version))
        manifest = ByteBuffer(data: try Data(contentsOf: root.appendingPathComponent("manifest.webmanifest")))
        touchIcon = ByteBuffer(data: try Data(contentsOf: root.appendingPathComponent("icons/apple-touch-icon.png")))
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        let worker = serviceWorker
        let manifest = manifest
        let touchIcon = touchIcon
        // Always asked again: a browser checks for a new worker on navigation, and must see one at once.
        router.get("sw.js") { _, _ in Self.response(worker, type: "text/javascript; charset=utf-8", cache: "no-cache") }
        router.get("manifest.webmanifest") { _, _ in
            Self.response(manifest, type: "application/manifest+json", cache: "max-age=3600")
        }
        router.get("apple-touch-icon.png") { _, _ in
            Self.response(touchIcon, type: "image/png", cache: "max-age=86400")
        }
    }

    private static func response(_ body: ByteBuffer, type: String, cache: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: cache, .contentTypeOptions: "nosniff"],
            body: .init(byteBuffer: body))
    }

    /// Every regular file under `root`, in a stable order, with its path relative to `root`.
    private static func files(under root: URL) throws -> [(relativePath: String, url: URL)] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        else { throw WebRendererError("cannot list the static files in \(root.path)") }
        var found: [(relativePath: String, url: URL)] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            found.append((String(url.path.dropFirst(root.path.count)), url))
        }
        return found.sorted { $0.relativePath < $1.relativePath }
    }
}
