import Foundation
import JukeCore

/// ping, getLicense, getOpenSubsonicExtensions, tokenInfo, getUser and getUsers.
enum SystemEndpoints {
    static func all(platform: Platform, extensions: [SubsonicExtension]) -> [SubsonicEndpoint] {
        [
            SubsonicEndpoint("ping") { _ in .empty },
            SubsonicEndpoint("getLicense") { _ in
                var license = SubsonicElement()
                license.add("valid", true)
                return .element("license", license)
            },
            // Open to everyone, as the extension requires: a client asks before signing in.
            SubsonicEndpoint("getOpenSubsonicExtensions", access: .everyone) { _ in
                .list(
                    "openSubsonicExtensions",
                    extensions.map { ext in
                        var e = SubsonicElement()
                        e.add("name", ext.name)
                        e.add("versions", values: ext.versions.map { .int($0) })
                        return e
                    })
            },
            SubsonicEndpoint("tokenInfo") { call in
                guard case .apiKey = call.credentials else {
                    throw SubsonicError(.invalidAPIKey, "tokenInfo describes an API key: sign in with apiKey.")
                }
                var info = SubsonicElement()
                info.add("username", try call.user.username)
                return .element("tokenInfo", info)
            },
            SubsonicEndpoint("getUser") { call in
                let me = try call.user
                let name = try call.parameters.required("username")
                // Anyone may read themselves; only an admin reads someone else.
                if name.lowercased() == me.username.lowercased() { return .element("user", user(me)) }
                guard me.isAdmin else { throw SubsonicError.adminOnly }
                guard let other = try await platform.users.user(username: name) else { throw SubsonicError.notFound("User") }
                return .element("user", user(other))
            },
            SubsonicEndpoint("getUsers", access: .admin) { _ in
                var users = SubsonicElement()
                users.add("user", list: try await platform.users.all().map(user))
                return .element("users", users)
            },
        ]
    }

    /// A Juke account in Subsonic's terms: everyone streams, downloads and sees covers; the
    /// roles Juke has no such thing for are false; admins are admins.
    static func user(_ account: User) -> SubsonicElement {
        var e = SubsonicElement()
        e.add("username", account.username)
        e.add("email", account.email)
        e.add("scrobblingEnabled", false)
        e.add("adminRole", account.isAdmin)
        e.add("settingsRole", false)
        e.add("downloadRole", true)
        e.add("uploadRole", false)
        e.add("playlistRole", false)
        e.add("coverArtRole", true)
        e.add("commentRole", false)
        e.add("podcastRole", false)
        e.add("streamRole", true)
        e.add("jukeboxRole", false)
        e.add("shareRole", false)
        e.add("videoConversionRole", false)
        e.add("folder", values: [.int(SubsonicLibrary.musicFolderID)])
        return e
    }
}
