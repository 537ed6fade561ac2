/// A paragraph cut into sentences, for reading aloud one at a time (and highlighting the one
/// being read): a sentence ends at `.`, `!`, `?` or `…` (with closing quotes and brackets) before
/// a space and a capital, a digit or an opening quote; not after a known abbreviation ("Mr.",
/// "e.g.", "U.S."), an initial ("J. R. R."), or inside a number ("3.14").
public enum Sentences {
    static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "vs", "etc", "e.g", "i.e", "cf", "no", "vol", "fig", "inc", "ltd", "co", "corp",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "gen", "gov", "sen", "rep", "rev", "capt", "lt",
        "col", "sgt", "u.s", "u.k", "a.m", "p.m", "approx", "dept", "est", "ca",
    ]

    /// The sentences of `paragraph`, trimmed, in order; their concatenation with single spaces
    /// gives the paragraph back.
    public static func split(_ paragraph: String) -> [String] {
        let characters = Array(paragraph)
        var out: [String] = []
        var start = 0
        var i = 0
        while i < characters.count {
            let c = characters[i]
            guard c == "." || c == "!" || c == "?" || c == "…" else {
                i += 1
                continue
            }
            var end = i + 1
            while end < characters.count, "!?.…\"'”’)]".contains(characters[end]) { end += 1 }
            // The end of the paragraph, or a space followed by what starts a sentence.
            guard end < characters.count else { break }
            guard characters[end] == " ", end + 1 < characters.count else {
                i = end
                continue
            }
            let next = characters[end + 1]
            let startsSentence = next.isUppercase || next.isNumber || "\"'“‘(¿¡".contains(next) || !next.isLetter && !next.isPunctuation
            if c == "." && (!startsSentence || isAbbreviation(characters, before: i)) {
                i = end
                continue
            }
            if !startsSentence && c != "?" && c != "!" {
                i = end
                continue
            }
            let sentence = String(characters[start..<end]).trimmingSpaces
            if !sentence.isEmpty { out.append(sentence) }
            start = end + 1
            i = end + 1
        }
        let last = String(characters[min(start, characters.count)...]).trimmingSpaces
        if !last.isEmpty { out.append(last) }
        return out
    }

    /// The word before a full stop at `dot` is an abbreviation or an initial.
    static func isAbbreviation(_ characters: [Character], before dot: Int) -> Bool {
        var j = dot
        while j > 0, characters[j - 1] != " " { j -= 1 }
        let word = String(characters[j..<dot]).lowercased().filter { $0.isLetter || $0 == "." }
        if word.count == 1 { return true }  // an initial: "J." or "a."
        return abbreviations.contains(word)
    }
}

extension String {
    var trimmingSpaces: String {
        var view = Substring(self)
        while view.first == " " { view = view.dropFirst() }
        while view.last == " " { view = view.dropLast() }
        return String(view)
    }
}
