public import Foundation

/// Dates as feeds write them: RFC 822 (RSS) and ISO 8601 / W3C-DTF (Atom, Dublin Core), with
/// the malformations real feeds have: a missing or misspelt weekday, two-digit years, missing
/// seconds, day and month swapped, full month names, zone names, offsets with or without a
/// colon, a space for the "T", a date with no time. Read without a calendar object: a
/// 2,000-episode feed has 2,000 of them.
public enum FeedDate {
    public static func parse(_ text: String) -> Date? {
        let s = text.trimmed
        guard !s.isEmpty, s.utf8.count <= 100 else { return nil }
        if let first = s.utf8.first, first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"), let iso = iso8601(s) { return iso }
        return strictRFC822(s) ?? rfc822(s) ?? iso8601(s)
    }

    /// RFC 822 exactly as most feeds write it ("Mon, 01 Jan 2024 06:20:00 +0000" or "GMT"),
    /// read from its bytes without allocating: a feed has a date per episode.
    static func strictRFC822(_ s: String) -> Date? {
        var text = s
        return text.withUTF8 { b -> Date? in
            // "Www, " then "D" or "DD", " Mmm ", "YYYY ", "HH:MM:SS ", zone.
            var i = 0
            if b.count > 5, b[3] == UInt8(ascii: ","), b[4] == UInt8(ascii: " ") { i = 5 }
            func digit(_ k: Int) -> Int? {
                guard k < b.count, b[k] >= UInt8(ascii: "0"), b[k] <= UInt8(ascii: "9") else { return nil }
                return Int(b[k] - UInt8(ascii: "0"))
            }
            guard let d1 = digit(i) else { return nil }
            var day = d1
            i += 1
            if let d2 = digit(i) {
                day = day * 10 + d2
                i += 1
            }
            guard i + 5 <= b.count, b[i] == UInt8(ascii: " "), b[i + 4] == UInt8(ascii: " ") else { return nil }
            let name = (UInt32(b[i + 1] | 0x20) << 16) | (UInt32(b[i + 2] | 0x20) << 8) | UInt32(b[i + 3] | 0x20)
            guard let month = monthCodes.firstIndex(of: name).map({ $0 + 1 }) else { return nil }
            i += 5
            guard let y1 = digit(i), let y2 = digit(i + 1), let y3 = digit(i + 2), let y4 = digit(i + 3) else { return nil }
            let year = y1 * 1000 + y2 * 100 + y3 * 10 + y4
            i += 4
            guard i + 9 <= b.count, b[i] == UInt8(ascii: " "), b[i + 3] == UInt8(ascii: ":"), b[i + 6] == UInt8(ascii: ":"),
                let h1 = digit(i + 1), let h2 = digit(i + 2), let m1 = digit(i + 4), let m2 = digit(i + 5), let s1 = digit(i + 7), let s2 = digit(i + 8)
            else { return nil }
            i += 9
            var offset = 0
            let rest = b.count - i
            if rest == 4, b[i] == UInt8(ascii: " "), b[i + 1] == UInt8(ascii: "G"), b[i + 2] == UInt8(ascii: "M"), b[i + 3] == UInt8(ascii: "T") {
                offset = 0
            } else if rest == 6, b[i] == UInt8(ascii: " "), b[i + 1] == UInt8(ascii: "+") || b[i + 1] == UInt8(ascii: "-"),
                let a = digit(i + 2), let c = digit(i + 3), let e = digit(i + 4), let f = digit(i + 5)
            {
                offset = (b[i + 1] == UInt8(ascii: "-") ? -1 : 1) * ((a * 10 + c) * 3600 + (e * 10 + f) * 60)
            } else {
                return nil
            }
            return date(year: year, month: month, day: day, hour: h1 * 10 + h2, minute: m1 * 10 + m2, second: Double(s1 * 10 + s2), offset: offset)
        }
    }

    /// The months' three letters as numbers, for comparing bytes.
    static let monthCodes: [UInt32] = months.map { name in name.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }

    /// "2004-01-01T19:48:21.5+02:00", "2004-01-01 19:48Z", "20040101T194821Z", "2004-01", "2004".
    static func iso8601(_ s: String) -> Date? {
        var scanner = Digits(Array(s.utf8))
        guard let year = scanner.number(exactly: 4) else { return nil }
        scanner.skip("-")
        var month = 1
        var day = 1
        if let m = scanner.number(exactly: 2) {
            month = m
            scanner.skip("-")
            if let d = scanner.number(exactly: 2) { day = d }
        }
        var hour = 0
        var minute = 0
        var second = 0.0
        var offset = 0
        if scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") {
            guard let h = scanner.number(exactly: 2) else { return nil }
            hour = h
            scanner.skip(":")
            minute = scanner.number(exactly: 2) ?? 0
            scanner.skip(":")
            if let sec = scanner.number(exactly: 2) {
                second = Double(sec)
                if scanner.skip(".") || scanner.skip(",") { second += scanner.fraction() }
            }
            scanner.skipSpaces()
            if scanner.skip("Z") || scanner.skip("z") {
                offset = 0
            } else if let zone = scanner.signedOffset() {
                offset = zone
            } else if let name = scanner.rest(), let zone = zoneOffset(name) {
                offset = zone
            }
        }
        guard scanner.atEnd || scanner.restIsSpace else { return nil }
        return date(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    /// "Thu, 01 Jan 2004 19:48:21 GMT", "1 Jan 04 19:48 +0200", "Thursday, January 1, 2004 7:48:21 PM EST".
    static func rfc822(_ s: String) -> Date? {
        var words: [Substring] = []
        for part in s.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
            // "01-Jan-2004" and "GMT+0200" come apart into their pieces.
            if part.first?.isNumber == true && part.contains(where: { $0 == "-" }) && part.contains(where: \.isLetter) {
                words.append(contentsOf: part.split(separator: "-"))
            } else if let cut = part.firstIndex(where: { $0 == "+" || $0 == "-" }), cut != part.startIndex, part[part.startIndex].isLetter {
                words.append(part[..<cut])
                words.append(part[cut...])
            } else {
                words.append(part)
            }
        }
        var day: Int?
        var month: Int?
        var year: Int?
        var hour = 0
        var minute = 0
        var second = 0.0
        var offset = 0
        var pm: Bool?
        for word in words {
            let lower = word.lowercased()
            if word.first == "+" || (word.first == "-" && word.count > 1) {
                guard let zone = zoneOffset(String(word)) else { return nil }
                offset = zone
            } else if let m = monthNumber(lower) {
                month = m
            } else if weekdays.contains(where: { lower.hasPrefix($0) }) {
                continue
            } else if word.contains(where: { $0 == ":" }) {
                let parts = word.split(separator: ":")
                guard parts.count >= 2, let h = Int(parts[0]), let mi = Int(parts[1]) else { return nil }
                hour = h
                minute = mi
                if parts.count >= 3, let sec = Double(parts[2]) { second = sec }
            } else if lower == "am" || lower == "pm" {
                pm = lower == "pm"
            } else if let number = Int(word), word.first?.isNumber == true {
                if word.count >= 3 || (day != nil && month != nil) || (day != nil && year == nil && number > 31) {
                    year = number
                } else if day == nil {
                    day = number
                } else {
                    year = number
                }
            } else if let zone = zoneOffset(String(word)) {
                offset = zone
            } else {
                return nil
            }
        }
        guard let day, let month, var year else { return nil }
        if year < 100 { year += year < 50 ? 2000 : 1900 }
        if let pm {
            if pm && hour < 12 { hour += 12 } else if !pm && hour == 12 { hour = 0 }
        }
        return date(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func monthNumber(_ lower: String) -> Int? {
        guard lower.count >= 3, lower.first?.isLetter == true else { return nil }
        let prefix = String(lower.prefix(3))
        guard let index = months.firstIndex(of: prefix) else { return nil }
        // "June", "Sept", "Sep.": a month; "Sunday" is not ("sun" is no month).
        return index + 1
    }

    /// Seconds east of UTC for a zone as feeds write it: names, military letters, offsets.
    static func zoneOffset(_ raw: String) -> Int? {
        let name = raw.uppercased().trimmingCharacters(in: CharacterSet(charactersIn: "()."))
        switch name {
        case "GMT", "UT", "UTC", "Z", "": return 0
        case "EST": return -5 * 3600
        case "EDT": return -4 * 3600
        case "CST": return -6 * 3600
        case "CDT": return -5 * 3600
        case "MST": return -7 * 3600
        case "MDT": return -6 * 3600
        case "PST": return -8 * 3600
        case "PDT": return -7 * 3600
        case "CET", "MEZ": return 3600
        case "CEST", "MESZ": return 7200
        case "BST": return 3600
        case "JST": return 9 * 3600
        case "AEST": return 10 * 3600
        default: break
        }
        var digits = Digits(Array(name.utf8))
        if let value = digits.signedOffset(), digits.atEnd { return value }
        if name.hasPrefix("GMT") || name.hasPrefix("UTC") { return zoneOffset(String(name.dropFirst(3))) }
        return nil
    }

    /// A UTC instant from civil fields and the zone's offset; nil when a field is out of range.
    static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double, offset: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour), (0...59).contains(minute), second >= 0, second < 61,
            (1...9999).contains(year)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 - offset) + second
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// "Thu, 01 Jan 2004 19:48:21 GMT": RFC 822 as feeds write pubDate, in UTC.
    public static func rfc822String(_ date: Date) -> String {
        let iso = Array(iso(date))  // yyyy-MM-ddTHH:mm:ssZ
        guard iso.count == 20, let month = Int(String(iso[5...6])), (1...12).contains(month) else { return "" }
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = weekdays[((days % 7) + 7) % 7]
        return "\(weekday), \(String(iso[8...9])) \(months[month - 1]) \(String(iso[0...3])) \(String(iso[11...18])) GMT"
    }

    /// "2004-01-01T19:48:21Z": ISO 8601 in UTC, to the second.
    public static func iso(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        var days = total / 86_400
        var rest = total % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let y = String(year)
        let paddedYear = String(repeating: "0", count: max(0, 4 - y.count)) + y
        return "\(paddedYear)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
    }
}

/// A cursor over ASCII digits and signs, for the date readers.
struct Digits {
    let bytes: [UInt8]
    var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { i >= bytes.count }
    var restIsSpace: Bool { bytes[i...].allSatisfy { $0 == 0x20 } }

    mutating func number(exactly count: Int) -> Int? {
        guard i + count <= bytes.count else { return nil }
        var value = 0
        for k in 0..<count {
            let c = bytes[i + k]
            guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(c - UInt8(ascii: "0"))
        }
        i += count
        return value
    }

    mutating func fraction() -> Double {
        var value = 0.0
        var scale = 0.1
        while i < bytes.count, bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") {
            value += Double(bytes[i] - UInt8(ascii: "0")) * scale
            scale /= 10
            i += 1
        }
        return value
    }

    @discardableResult
    mutating func skip(_ c: Unicode.Scalar) -> Bool {
        guard i < bytes.count, bytes[i] == UInt8(c.value) else { return false }
        i += 1
        return true
    }

    mutating func skipSpaces() { while i < bytes.count && bytes[i] == 0x20 { i += 1 } }

    /// "+02:00", "-0500", "+02": seconds east of UTC.
    mutating func signedOffset() -> Int? {
        let start = i
        guard i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") else { return nil }
        let sign = bytes[i] == UInt8(ascii: "-") ? -1 : 1
        i += 1
        guard let hours = number(exactly: 2) else {
            i = start
            return nil
        }
        skip(":")
        let minutes = number(exactly: 2) ?? 0
        return sign * (hours * 3600 + minutes * 60)
    }

    mutating func rest() -> String? {
        guard i < bytes.count else { return nil }
        defer { i = bytes.count }
        return String(decoding: bytes[i...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}
