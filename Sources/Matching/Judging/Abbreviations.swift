/// Short forms that tags write and a room says in full: "Doctor Dre" for "Dr. Dre", "Saint
/// Vincent" for "St. Vincent", "Mister Brightside" for "Mr. Brightside". The judge reads both
/// the guess and the answer with them spelled out, so either way of writing a name is the
/// same name, and typos are forgiven by the length of the word said, not of its two letters.
///
/// A short form counts only where it stands as one: before a name ("Dr." of "Dr. Dre"), and
/// for a street's or road's word at the end after one ("Baker St."). Alone it is not read:
/// "Dr" alone is no guess of "Doctor", and "Mt" alone not of "Mount".
/// Featured artists ("feat.", "ft.", "featuring") are set aside by the normalizer, whichever
/// way they are written.
enum Abbreviations {
    /// Before a name: "Dr. Dre", "St. Elmo's Fire", "Mr. Mister", "Mt. Joy".
    static let beforeName: [String: String] = ["dr": "doctor", "st": "saint", "mr": "mister", "mt": "mount"]
    /// The last word, after a name: "Baker St.", "Mulholland Dr.".
    static let afterName: [String: String] = ["st": "street", "dr": "drive"]

    /// `words` with each short form that stands as one spelled out.
    static func expanded(_ words: [String]) -> [String] {
        guard words.count >= 2 else { return words }
        var out = words
        for (index, word) in words.enumerated() {
            if index + 1 < words.count, let full = beforeName[word] {
                out[index] = full
            } else if index == words.count - 1, let full = afterName[word] {
                out[index] = full
            }
        }
        return out
    }
}
