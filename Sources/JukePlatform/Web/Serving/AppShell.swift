import Crypto
import Foundation
import Hummingbird
import JukeCore

/// What makes Juke an installable web app: its manifest (name, icons, colours, standalone,
/// shortcuts to the apps) and its service worker, told the shell to keep for offline: the home
/// and app pages, every file under the platform's and the apps' static folders, and the icons
/// module generated from `Icons.all` (`/static/js/icons.js`, served here too), and the
/// addresses of what pages may save on the device (the platform's and each app's). The
/// version is a hash of those files, so a server with new scripts serves a new `/sw.js` and
/// browsers install it (it starts the next time Juke is opened; the page says so).
struct AppShell: Sendable {
    let version: String
    let pages: [String]
    let assets: [String]
    let cards: [AppCard]
    /// Path templates of what pages may keep on the device: the platform's library audio and
    /// covers, and what each app declares (`JukeApp.deviceKeptPaths`).
    let deviceKept: [String]

    /// The platform's own: a library track saved for offline listening.
    static let platformDeviceKept = ["/api/v1/catalog/tracks/{id}/audio", "/api/v1/catalog/tracks/{id}/artwork"]

    /// The colour of the page behind everything (`--bg` in app.css), for the splash screen
    /// and the window's title bar.
    static let background = "#0b0d10"

    /// `folders` are the static roots and the prefixes they are served under.
    init(cards: [AppCard], folders: [(root: URL, prefix: String)], deviceKept: [String] = []) {
        self.cards = cards
        self.deviceKept = Self.platformDeviceKept + deviceKept
        pages = ["/"] + cards.map { "/\($0.slug)" }
        var files: [(url: String, path: String)] = []
        for folder in folders {
            let root = folder.root.standardizedFileURL.path
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let relative as String in walker {
                var isDirectory: ObjCBool = false
                let path = root + "/" + relative
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                files.append((folder.prefix + relative, path))
            }
        }
        files.sort { $0.url < $1.url }
        assets = (files.map(\.url) + [Self.iconsModule]).sorted()
        var hash = SHA256()
        for page in pages + self.deviceKept { hash.update(data: Data(page.utf8)) }
        hash.update(data: Data(Icons.module.utf8))
        for file in files {
            hash.update(data: Data(file.url.utf8))
            hash.update(data: FileManager.default.contents(atPath: file.path) ?? Data())
        }
        version = String(Hex.string(hash.finalize()).prefix(16))
    }

    /// The web app manifest (W3C Web App Manifest), as JSON.
    var manifest: Data {
        let icons: [[String: String]] = [
            ["src": "/static/img/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"],
            ["src": "/static/img/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"],
            ["src": "/static/img/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"],
            ["src": "/static/img/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"],
        ]
        let shortcuts: [[String: Any]] = cards.map { card in
            [
                "name": card.name, "short_name": card.name, "description": card.blurb, "url": "/\(card.slug)",
                "icons": [["src": "/static/img/icon-192.png", "sizes": "192x192", "type": "image/png"]],
            ]
        }
        let manifest: [String: Any] = [
            "id": "/", "name": "Juke", "short_name": "Juke",
            "description": "Your music, party games, audiobooks and podcasts, and runs, on your own server.",
            "start_url": "/", "scope": "/", "display": "standalone", "orientation": "any",
            "background_color": Self.background, "theme_color": Self.background,
            "icons": icons, "shortcuts": shortcuts, "categories": ["music", "entertainment"],
        ]
        return (try? JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }

    /// Where scripts import the icons from: a module generated from `Icons.all`, not a file.
    static let iconsModule = "/static/js/icons.js"

    /// `/sw.js`: the worker module with this server's shell.
    var serviceWorker: String {
        let shell: [String: Any] = ["version": version, "pages": pages, "assets": assets, "device": deviceKept]
        let json = (try? JSONSerialization.data(withJSONObject: shell, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return """
            // Juke's service worker, version \(version): the shell this server serves.
            import { start } from "/static/js/service-worker.js";
            start(\(String(decoding: json, as: UTF8.self)));

            """
    }

    func register<Context: RequestContext>(on router: Router<Context>) {
        let manifest = manifest
        let worker = serviceWorker
        let icons = Icons.module
        router.get("/manifest.webmanifest") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/manifest+json", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(bytes: manifest)))
        }
        router.get("/sw.js") { _, _ in
            // Never cached by HTTP: the browser compares it byte for byte to find a new version.
            Response(
                status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(string: worker)))
        }
        router.get(RouterPath(Self.iconsModule)) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache", .xContentTypeOptions: "nosniff"],
                body: .init(byteBuffer: ByteBuffer(string: icons)))
        }
    }
}
