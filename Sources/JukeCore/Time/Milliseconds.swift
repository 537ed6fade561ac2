public import Foundation

/// Times as the contract carries them to pages: whole milliseconds since 1970, the unit of
/// JavaScript's `Date.now()`, so a page compares them with its own clock directly.
public enum Milliseconds {
    public static func since1970(_ date: Date) -> Double { (date.timeIntervalSince1970 * 1000).rounded() }
}
