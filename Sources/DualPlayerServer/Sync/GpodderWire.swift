import Foundation
import JukeCore

/// gpodder.net's API v2 as AntennaPod, gPodder and mygpoclient speak it, read and written
/// without I/O: device ids, feed and episode addresses, episode actions and their times, and
/// the "since" timestamps. Every refusal is a `RuleRefusal` naming what was wrong (a 400).
enum GpodderWire {
    /// Budgets for one request: more than this is refused, never cut.
    static let maxActionsPerUpload = 1000
    static let maxURLsPerUpload = 1000
    static let maxURLLength = 2000

    /// The device types gpodder.net names.
    static let deviceTypes: Set<String> = ["desktop", "laptop", "mobile", "server", "other"]
    /// The episode actions gpodder.net accepts ("flattr" is taken and kept, as the others are).
    static let actions: Set<String> = ["download", "delete", "play", "new", "flattr"]

    /// A device id as gpodder.net defines it (`[\w.-]+`), at most 64 characters.
    static func deviceID(_ text: String) throws(RuleRefusal) -> String {
        guard (1...64).contains(text.unicodeScalars.count),
            text.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_.-".unicodeScalars.contains($0)) })
        else { throw .invalid("deviceid", "A device id is 1 to 64 letters, digits, '_', '.' or '-'.") }
        return text
    }

    /// A feed or episode address as gpodder.net sanitizes it: surrounding spaces trimmed; an
    /// address that is not http(s), carries anything but ASCII, or is too long becomes "" (the
    /// client is told in `update_urls`, and it is ignored).
    static func sanitized(_ url: String) -> String {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = trimmed.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), trimmed.utf8.count <= maxURLLength,
            trimmed.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value != 0x7F }), URL(string: trimmed)?.host != nil
        else { return "" }
        return trimmed
    }

    /// "since": a timestamp this server gave (0 or absent: from the start).
    static func since(_ text: String?) throws(RuleRefusal) -> Int64 {
        guard let text, !text.isEmpty else { return 0 }
        guard let value = Int64(text), value >= 0 else { throw .invalid("since", "since is a timestamp this server answered earlier (a whole number).") }
        return value
    }

    // MARK: Subscription changes

    struct SubscriptionUpload: Sendable, Equatable {
        var add: [String]
        var remove: [String]
        /// Addresses rewritten while sanitizing: (as sent, as kept; "" for ignored).
        var updated: [(String, String)]

        static func == (a: Self, b: Self) -> Bool {
            a.add == b.add && a.remove == b.remove && a.updated.map { [$0.0, $0.1] } == b.updated.map { [$0.0, $0.1] }
        }
    }

    /// `{"add": [...], "remove": [...]}`: each list of strings, within the budget; the same
    /// address in both is refused, as gpodder.net does.
    static func subscriptionUpload(_ body: Data) throws(RuleRefusal) -> SubscriptionUpload {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw .invalid("body", "Send a JSON object with the lists \"add\" and \"remove\".")
        }
        func list(_ key: String) throws(RuleRefusal) -> [String] {
            guard let value = object[key], !(value is NSNull) else { return [] }
            guard let strings = value as? [String] else { throw .invalid(key, "\(key) is a list of feed addresses.") }
            return strings
        }
        let add = try list("add")
        let remove = try list("remove")
        guard add.count + remove.count <= maxURLsPerUpload else {
            throw .invalid("add", "Send at most \(maxURLsPerUpload) addresses in one upload.")
        }
        var updated: [(String, String)] = []
        func clean(_ urls: [String]) -> [String] {
            var seen = Set<String>()
            return urls.compactMap { url in
                let kept = sanitized(url)
                if kept != url { updated.append((url, kept)) }
                guard !kept.isEmpty, seen.insert(kept).inserted else { return nil }
                return kept
            }
        }
        let added = clean(add)
        let removed = clean(remove)
        if let both = Set(added).intersection(removed).first {
            throw .invalid("remove", "\(both.prefix(200)) is both added and removed.")
        }
        return SubscriptionUpload(add: added, remove: removed, updated: updated)
    }

    // MARK: Episode actions

    /// One episode action as a client sends it and as Juke answers it.
    struct Action: Sendable, Equatable {
        var podcast: String
        var episode: String
        var guid: String?
        var device: String?
        var action: String
        /// When it happened (the client's time; the upload's when not given).
        var timestamp: Date
        var started: Int?
        var position: Int?
        var total: Int?
    }

    /// A list of actions. Required: podcast, episode, action; `started`, `position` and
    /// `total` only on "play", whole non-negative seconds (AntennaPod and mygpoclient send
    /// integers; a fraction is rounded down). Addresses are sanitized as subscriptions are.
    static func actionUpload(_ body: Data, now: Date) throws(RuleRefusal) -> (actions: [Action], updated: [(String, String)]) {
        guard let list = try? JSONSerialization.jsonObject(with: body) as? [Any] else {
            throw .invalid("body", "Send a JSON list of episode actions.")
        }
        guard list.count <= maxActionsPerUpload else { throw .invalid("body", "Send at most \(maxActionsPerUpload) episode actions in one upload.") }
        var actions: [Action] = []
        var updated: [(String, String)] = []
        for (index, item) in list.enumerated() {
            guard let object = item as? [String: Any] else { throw .invalid("body", "Action \(index + 1) is not a JSON object.") }
            func text(_ key: String, required: Bool) throws(RuleRefusal) -> String? {
                guard let value = object[key], !(value is NSNull) else {
                    if required { throw .invalid(key, "Action \(index + 1) has no \(key).") }
                    return nil
                }
                guard let string = value as? String, string.utf8.count <= maxURLLength else {
                    throw .invalid(key, "Action \(index + 1): \(key) is a text of at most \(maxURLLength) bytes.")
                }
                return string
            }
            func seconds(_ key: String) throws(RuleRefusal) -> Int? {
                guard let value = object[key], !(value is NSNull) else { return nil }
                guard !(value is String), let number = (value as? NSNumber)?.doubleValue, number.isFinite, number >= 0, number < 1e8 else {
                    throw .invalid(key, "Action \(index + 1): \(key) is a number of seconds, 0 or more.")
                }
                return Int(number)
            }
            let name = (try text("action", required: true) ?? "").lowercased()
            guard Self.actions.contains(name) else {
                throw .invalid("action", "Action \(index + 1): action is one of download, play, delete, new.")
            }
            var addresses: [String] = []
            for key in ["podcast", "episode"] {
                let sent = try text(key, required: true) ?? ""
                let kept = sanitized(sent)
                if kept != sent { updated.append((sent, kept)) }
                addresses.append(kept)
            }
            let device = try text("device", required: false).map { (id: String) throws(RuleRefusal) -> String in try deviceID(id) }
            let stamp = try text("timestamp", required: false)
            var when = now
            if let stamp {
                guard let parsed = parseTime(stamp) else {
                    throw .invalid("timestamp", "Action \(index + 1): timestamp is a UTC time such as 2009-12-12T09:00:00.")
                }
                when = parsed
            }
            var action = Action(
                podcast: addresses[0], episode: addresses[1], guid: try text("guid", required: false), device: device, action: name, timestamp: when)
            if name == "play" {
                action.started = try seconds("started")
                action.position = try seconds("position")
                action.total = try seconds("total")
            } else if ["started", "position", "total"].contains(where: { object[$0] != nil && !(object[$0] is NSNull) }) {
                throw .invalid("position", "Action \(index + 1): started, position and total belong to play actions only.")
            }
            // Addresses gpodder.net would not keep are ignored (and said in update_urls).
            if !action.podcast.isEmpty && !action.episode.isEmpty { actions.append(action) }
        }
        return (actions, updated)
    }

    /// ISO 8601 in UTC as clients write it: "2009-12-12T09:00:00", with or without "Z", an
    /// offset or fractions of a second.
    static func parseTime(_ text: String) -> Date? {
        guard text.utf8.count <= 40 else { return nil }
        let iso = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            iso.formatOptions = options
            if let date = iso.date(from: text) { return date }
        }
        // Without a zone (AntennaPod, gpodder.net's examples): UTC.
        let plain = DateFormatter()
        plain.locale = Locale(identifier: "en_US_POSIX")
        plain.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss.SSSSSS", "yyyy-MM-dd'T'HH:mm:ss.SSS", "yyyy-MM-dd'T'HH:mm"] {
            plain.dateFormat = format
            if let date = plain.date(from: text) { return date }
        }
        return nil
    }

    /// The time as gpodder.net writes it ("2009-12-12T09:00:00", UTC, no zone: what
    /// AntennaPod parses).
    static func formatTime(_ date: Date) -> String {
        let plain = DateFormatter()
        plain.locale = Locale(identifier: "en_US_POSIX")
        plain.timeZone = TimeZone(identifier: "UTC")
        plain.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return plain.string(from: date)
    }

    static func json(_ action: Action) -> [String: Any] {
        var out: [String: Any] = ["podcast": action.podcast, "episode": action.episode, "action": action.action, "timestamp": formatTime(action.timestamp)]
        if let guid = action.guid { out["guid"] = guid }
        if let device = action.device { out["device"] = device }
        if let started = action.started { out["started"] = started }
        if let position = action.position { out["position"] = position }
        if let total = action.total { out["total"] = total }
        return out
    }

    /// gpodder.net's Basic credentials: "Basic base64(username:password)".
    static func basicCredentials(_ header: String?) -> (username: String, password: String)? {
        guard let header, header.count <= 4200, header.lowercased().hasPrefix("basic ") else { return nil }
        guard let data = Data(base64Encoded: header.dropFirst(6).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}
