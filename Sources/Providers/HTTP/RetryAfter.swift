import Foundation

/// A Retry-After header (or OpenAI's retry-after-ms) as seconds to wait. Only a finite,
/// non-negative number is believed, and at most a day: the header comes from outside, and
/// "inf", "nan" or "1e400" must not reach a sleep or an integer conversion. The HTTP-date
/// form (podcast hosts and CDNs send it) counts from `now`.
enum RetryAfter {
    static let longest = 86_400.0

    static func seconds(_ header: String?, scale: Double = 1, now: Date? = nil) -> Double? {
        guard let header = header?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let value = Double(header) {
            guard value.isFinite, value >= 0 else { return nil }
            return min(value * scale, longest)
        }
        guard let now, let date = httpDate(header) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), longest)
    }

    /// RFC 9110's IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), the form servers send.
    static func httpDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
            let month = months.firstIndex(of: parts[2].lowercased())
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (1900...9999).contains(year), (0...23).contains(clock[0]), (0...59).contains(clock[1]),
            (0...60).contains(clock[2])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        guard let gmt = TimeZone(identifier: "GMT") else { return nil }
        calendar.timeZone = gmt
        return calendar.date(from: DateComponents(year: year, month: month + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2]))
    }
}
