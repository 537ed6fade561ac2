public import Foundation
import MediaFormats

/// An HLS playlist (master or media) passed through Juke's relay: every address it names,
/// segment, variant playlist, key or init section, is resolved against the playlist's own
/// address and replaced with one on Juke's origin, so that the player fetches everything from
/// Juke (and Boost's Web Audio may take it). Addresses that are not http(s) (data:, skd:) are
/// left as they are. The text work is MediaFormats' `M3U8Rewriter`.
public enum HLSPlaylist {
    public static let maximumSize = M3U8Rewriter.maximumSize

    /// The rewritten playlist and the http(s) addresses it named, or nil when `body` is not an
    /// M3U8 playlist.
    public static func rewrite(_ body: [UInt8], base: URL, address: (URL) -> String) -> (text: String, named: [URL])? {
        var named: [URL] = []
        let text = M3U8Rewriter.rewrite(body[...]) { reference in
            guard let url = URL(string: reference, relativeTo: base)?.absoluteURL, let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme), url.host != nil
            else { return nil }
            named.append(url)
            return address(url)
        }
        return text.map { ($0, named) }
    }
}
