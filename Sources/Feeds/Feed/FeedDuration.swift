/// Lengths and times as feeds write them: itunes:duration ("1:02:03", "62:03", "3723",
/// "3723.5", "1h 2m 3s") and Podlove's normal play time ("01:02:03.500", "62.5").
public enum FeedDuration {
    /// Seconds, or nil when the text is no length (empty, negative, words).
    public static func seconds(_ text: String) -> Double? {
        let s = text.trimmed
        guard !s.isEmpty, s.count <= 32 else { return nil }
        if s.contains(":") {
            let parts = s.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 3 else { return nil }
            var total = 0.0
            for (index, part) in parts.enumerated() {
                let isLast = index == parts.count - 1
                guard let value = isLast ? Double(part) : Double(Int(part) ?? -1), value >= 0, value.isFinite else { return nil }
                total = total * 60 + value
            }
            return total
        }
        if let plain = Double(s), plain >= 0, plain.isFinite { return plain }
        // "1h 2m 3s", "45 min", "90 mins".
        var total = 0.0
        var number = ""
        var found = false
        for c in s.lowercased() + " " {
            if c.isNumber || c == "." {
                number.append(c)
            } else if c.isLetter {
                guard let value = Double(number) else {
                    if number.isEmpty { continue }
                    return nil
                }
                switch c {
                case "h": total += value * 3600
                case "m": total += value * 60
                case "s": total += value
                default: return nil
                }
                number = ""
                found = true
            } else if c != " " {
                return nil
            }
        }
        return found && number.isEmpty ? total : nil
    }
}
