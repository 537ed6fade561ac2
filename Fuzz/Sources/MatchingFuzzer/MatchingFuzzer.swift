import Matching

/// libFuzzer entry point for the matching engine: any text (the input split at its first
/// zero byte into a guess and an answer, invalid UTF-8 repaired as Swift does) must be
/// normalized, folded, scored and judged without a crash, and the scores must stay within
/// their bounds and be symmetric where they should be.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMatching(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let cut = bytes.firstIndex(of: 0) ?? bytes.count / 2
    let guess = String(decoding: bytes[..<cut], as: UTF8.self)
    let answer = String(decoding: bytes[min(bytes.count, cut + 1)...], as: UTF8.self)
    _ = MusicTextNormalizer.title(guess)
    _ = MusicTextNormalizer.artist(answer)
    _ = CatalogKey.fold(guess)
    for field in GuessJudge.Field.allCases { _ = GuessJudge().judge(guess: guess, answer: answer, field: field) }
    let a = guess.scalarValues, b = answer.scalarValues
    let ratio = Fuzz.ratio(a, b)
    precondition(ratio >= 0 && ratio <= 100 && ratio == Fuzz.ratio(b, a), "ratio out of bounds or asymmetric")
    precondition(IndelMatrix.ratios(queries: [a], choices: [b]) == [ratio], "matrix disagrees with the single-pair ratio")
    let partial = Fuzz.partialRatio(a, b)
    precondition(partial >= 0 && partial <= 100, "partial ratio out of bounds")
    precondition(Levenshtein.distance(a, b) == Levenshtein.distance(b, a), "levenshtein asymmetric")
    var index = CatalogIndex<Int>()
    index.upsert(0, text: answer)
    _ = index.search(guess, limit: 1)
    return 0
}
