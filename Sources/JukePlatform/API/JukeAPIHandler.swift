import Foundation
import JukeAPI
import JukeCore
import Storage

/// The spec's operations. Each handler is thin: read the input, call a service or store,
/// map the result. Failures are thrown as `APIError` and rendered by `ErrorMiddleware`.
struct JukeAPIHandler: APIProtocol {
    let platform: Platform

    /// Whether tracks no browser plays can be played here (transcoded).
    var canTranscode: Bool { platform.transcoder != nil }
}

// MARK: - System

extension JukeAPIHandler {
    /// The server's time, for countdowns and positions the server set (GET /api/v1/clock).
    func getClock(_ input: Operations.GetClock.Input) async throws -> Operations.GetClock.Output {
        .ok(.init(body: .json(.init(now: Milliseconds.since1970(platform.clock.now())))))
    }

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        try await respond {
            let kind: Components.Schemas.Health.DatabasePayload = platform.database.kind == .postgres ? .postgres : .sqlite
            do {
                _ = try await platform.library.generation()
                return .ok(.init(body: .json(.init(status: .ok, database: kind, version: JukeVersion.current))))
            } catch {
                return .serviceUnavailable(.init(body: .json(.init(status: .degraded, database: kind, version: JukeVersion.current))))
            }
        }
    }
}

// MARK: - Auth

extension JukeAPIHandler {
    func register(_ input: Operations.Register.Input) async throws -> Operations.Register.Output {
        try await respond {
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let signedIn = try await platform.auth.register(
                username: body.username, password: body.password, email: body.email, displayName: body.displayName,
                address: CurrentRequest.remoteAddress)
            ResponseCookies.set(cookie(for: signedIn))
            return .created(.init(body: .json(session(signedIn))))
        }
    }

    func login(_ input: Operations.Login.Input) async throws -> Operations.Login.Output {
        try await respond {
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let signedIn = try await platform.auth.login(username: body.username, password: body.password, address: CurrentRequest.remoteAddress)
            ResponseCookies.set(cookie(for: signedIn))
            return .ok(.init(body: .json(session(signedIn))))
        }
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            if let hash = CurrentRequest.tokenHash {
                platform.knownTokens.forget(hash)
                try await platform.auth.logout(tokenHash: hash)
            }
            ResponseCookies.set(Tokens.clearedCookie(secure: CurrentRequest.isSecure))
            return .noContent(.init())
        }
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        try await respond {
            .ok(.init(body: .json(APIMapping.user(try CurrentRequest.requireUser()))))
        }
    }

    private func session(_ s: AuthService.SignedIn) -> Components.Schemas.Session {
        .init(token: s.token, expiresAt: s.expiresAt, user: APIMapping.user(s.user))
    }

    private func cookie(for s: AuthService.SignedIn) -> String {
        Tokens.cookie(s.token, maxAge: Int(s.expiresAt.timeIntervalSince(platform.clock.now())), secure: CurrentRequest.isSecure)
    }
}

// MARK: - Catalog

extension JukeAPIHandler {
    func searchCatalog(_ input: Operations.SearchCatalog.Input) async throws -> Operations.SearchCatalog.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            let page = try Paging(limit: input.query.limit, offset: input.query.offset)
            guard input.query.q.unicodeScalars.count <= 200 else { throw APIError.badRequest("A search has at most 200 characters.", field: "q") }
            let result = try await platform.search.search(input.query.q, limit: page.limit, offset: page.offset)
            return .ok(
                .init(
                    body: .json(
                        .init(
                            items: result.tracks.map { APIMapping.track($0, canTranscode: canTranscode) }, total: result.total, limit: page.limit,
                            offset: page.offset,
                            approximate: result.approximate, suggestion: result.suggestion))))
        }
    }

    func listTracks(_ input: Operations.ListTracks.Input) async throws -> Operations.ListTracks.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            let page = try Paging(limit: input.query.limit, offset: input.query.offset)
            let q = input.query
            if let genre = q.genre, genre.unicodeScalars.count > 100 { throw APIError.badRequest("A genre has at most 100 characters.", field: "genre") }
            if let year = q.year, !(0...9999).contains(year) { throw APIError.badRequest("year must be between 0 and 9999.", field: "year") }
            let filter = LibraryStore.TrackFilter(
                artistID: try q.artistId.map { try parseID($0, field: "artist_id") },
                albumID: try q.albumId.map { try parseID($0, field: "album_id") },
                genre: q.genre, year: q.year
            )
            let order: LibraryStore.TrackOrder = q.sort == .newest ? .newest : .artist
            var query = LibraryStore.TrackQuery(filter: filter, order: order, limit: page.limit, offset: page.offset)
            query.after = try cursor(q.after, scope: "tracks", column: query.orderColumn, offset: page.offset)
            let result = try await platform.library.tracks(query)
            return .ok(
                .init(
                    body: .json(
                        .init(
                            items: result.tracks.map { APIMapping.track($0, canTranscode: canTranscode) }, total: result.total, limit: page.limit,
                            offset: page.offset, next: result.next?.text))))
        }
    }

    func getTrack(_ input: Operations.GetTrack.Input) async throws -> Operations.GetTrack.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            let id: TrackID = try parseID(input.path.trackId, field: "track_id")
            guard let track = try await platform.library.track(id: id) else { throw APIError.notFound("track") }
            return .ok(.init(body: .json(APIMapping.track(track, canTranscode: canTranscode))))
        }
    }

    func listAlbums(_ input: Operations.ListAlbums.Input) async throws -> Operations.ListAlbums.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            let page = try Paging(limit: input.query.limit, offset: input.query.offset)
            let q = input.query
            let artist: ArtistID? = try q.artistId.map { try parseID($0, field: "artist_id") }
            var query = try AlbumListRequest.query(
                sort: q.sort?.rawValue, artistID: artist, genre: q.genre, fromYear: q.fromYear,
                toYear: q.toYear, limit: page.limit, offset: page.offset, hasAfter: q.after != nil)
            query.after = try cursor(q.after, scope: "albums", column: query.orderColumn, offset: page.offset)
            if let from = q.from {
                guard query.order == .artist || query.order == .name else {
                    throw APIError.badRequest("from starts a page in the artist or name order.", field: "from")
                }
                query.after = try start(from: from, scope: "albums", column: query.orderColumn, offset: page.offset, hasAfter: q.after != nil)
            }
            query.randomStart = UUID().uuidString.lowercased()
            let result = try await platform.library.albums(query)
            return .ok(
                .init(
                    body: .json(
                        .init(
                            items: result.albums.map(APIMapping.album), total: result.total, limit: page.limit, offset: page.offset,
                            next: result.next?.text))))
        }
    }

    func listArtists(_ input: Operations.ListArtists.Input) async throws -> Operations.ListArtists.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            let page = try Paging(limit: input.query.limit, offset: input.query.offset)
            var after = try cursor(input.query.after, scope: "artists", column: "order_name", offset: page.offset)
            if let from = input.query.from {
                after = try start(from: from, scope: "artists", column: "order_name", offset: page.offset, hasAfter: after != nil)
            }
            let result = try await platform.library.artists(limit: page.limit, offset: page.offset, after: after)
            let items = result.artists.map {
                Components.Schemas.Artist(id: $0.id.description, name: $0.name, trackCount: $0.trackCount, albumCount: $0.albumCount)
            }
            return .ok(.init(body: .json(.init(items: items, total: result.total, limit: page.limit, offset: page.offset, next: result.next?.text))))
        }
    }

    /// A page's `after`: a `next` this order gave, never with an offset.
    private func cursor(_ text: String?, scope: String, column: String, offset: Int) throws(APIError) -> CatalogCursor? {
        guard let text else { return nil }
        guard offset == 0 else { throw .badRequest("Page on with after or with offset, not both.", field: "after") }
        guard let cursor = CatalogCursor(text: text), cursor.scope == scope, cursor.column == column else {
            throw .badRequest("after must be the next of a page in this order.", field: "after")
        }
        return cursor
    }

    /// Where a page that starts at a letter or a name (`from`, an A-Z index's jump) starts:
    /// after the folded text itself, as a cursor. Every stored name key is its folded name
    /// followed by more parts, so it sorts after the folded text exactly when the name is
    /// that text or sorts after it; the page is then read as any page after a cursor is, from
    /// the order's index (no query of its own).
    private func start(from text: String, scope: String, column: String, offset: Int, hasAfter: Bool) throws(APIError) -> CatalogCursor? {
        guard !hasAfter, offset == 0 else {
            throw .badRequest("from starts the first page; go on with after, and without an offset.", field: "from")
        }
        guard !text.isEmpty, text.unicodeScalars.count <= 100 else { throw .badRequest("from has 1 to 100 characters.", field: "from") }
        let key = CatalogKeys.name(text)
        return key.isEmpty ? nil : CatalogCursor(scope: scope, column: column, key: key)
    }

    func listGenres(_ input: Operations.ListGenres.Input) async throws -> Operations.ListGenres.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            return .ok(.init(body: .json(try await platform.library.facet(.genre).map { .init(value: $0.value, trackCount: $0.count) })))
        }
    }

    func listYears(_ input: Operations.ListYears.Input) async throws -> Operations.ListYears.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            return .ok(.init(body: .json(try await platform.library.facet(.year).map { .init(value: $0.value, trackCount: $0.count) })))
        }
    }
}

// MARK: - Library management

extension JukeAPIHandler {
    func listFolders(_ input: Operations.ListFolders.Input) async throws -> Operations.ListFolders.Output {
        try await respond {
            _ = try CurrentRequest.requireAdmin()
            return .ok(.init(body: .json(try await platform.library.folders().map(APIMapping.folder))))
        }
    }

    func addFolder(_ input: Operations.AddFolder.Input) async throws -> Operations.AddFolder.Output {
        try await respond {
            _ = try CurrentRequest.requireAdmin()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let folder = try await platform.addFolder(path: body.path)
            return .accepted(.init(body: .json(APIMapping.folder(folder))))
        }
    }

    func rescanLibrary(_ input: Operations.RescanLibrary.Input) async throws -> Operations.RescanLibrary.Output {
        try await respond {
            _ = try CurrentRequest.requireAdmin()
            try await platform.scans.startAll()
            return .accepted(.init(body: .json(try await libraryStatus())))
        }
    }

    func getLibraryStatus(_ input: Operations.GetLibraryStatus.Input) async throws -> Operations.GetLibraryStatus.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            return .ok(.init(body: .json(try await libraryStatus(showingPaths: user.isAdmin))))
        }
    }

    /// Server paths tell a stranger how the machine is laid out: only admins see them.
    private func libraryStatus(showingPaths: Bool = true) async throws -> Components.Schemas.LibraryStatus {
        let count = try await platform.library.trackCount()
        var scans = await platform.scans.snapshot().map(APIMapping.scan)
        guard showingPaths else {
            for i in scans.indices {
                scans[i].folderPath = nil
                scans[i].currentPath = nil
                scans[i].message = nil
            }
            return .init(trackCount: count, scans: scans, issues: [])
        }
        let issues = try await platform.library.scanIssues().map { Components.Schemas.ScanIssue(path: $0.path, reason: $0.reason) }
        return .init(trackCount: count, scans: scans, issues: issues)
    }
}

/// Validated paging: the spec's bounds, checked again here because the generated server
/// does not enforce minimum and maximum. Every listing route of every app pages through
/// this, with the default and bounds its operation declares in openapi.yaml.
public struct Paging: Sendable {
    public let limit: Int
    public let offset: Int

    public init(
        limit: Int?, offset: Int?, defaultLimit: Int = 50, maxLimit: Int = 500, maxOffset: Int = 10_000_000
    ) throws(APIError) {
        let limit = limit ?? defaultLimit
        let offset = offset ?? 0
        guard (1...maxLimit).contains(limit) else { throw .badRequest("limit must be between 1 and \(maxLimit).", field: "limit") }
        guard (0...maxOffset).contains(offset) else { throw .badRequest("offset must be between 0 and \(maxOffset).", field: "offset") }
        self.limit = limit
        self.offset = offset
    }
}

public func parseID<ID: TypedID>(_ text: String, field: String) throws(APIError) -> ID {
    guard let id = ID(text) else { throw .badRequest("\(field) must be a UUID.", field: field) }
    return id
}

enum JukeVersion {
    static let current = "0.1.0"
}
