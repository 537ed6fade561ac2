import Foundation

/// A Retry-After header (or OpenAI's retry-after-ms) as seconds to wait. Only a finite,
/// non-negative number is believed, and at most a day: the header comes from outside, and
/// "inf", "nan" or "1e400" must not reach a sleep or an integer conversion. (The HTTP-date
/// form is not used by the services Juke talks to, so it reads as unknown.)
enum RetryAfter {
    static let longest = 86_400.0

    static func seconds(_ header: String?, scale: Double = 1) -> Double? {
        guard let header, let value = Double(header.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0 else { return nil }
        return min(value * scale, longest)
    }
}
