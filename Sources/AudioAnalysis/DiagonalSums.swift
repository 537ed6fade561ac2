/// The self-similarity of a sequence of unit vectors (cosine: their dot product), kept as
/// prefix sums along each diagonal: the mean likeness of the stretch from i and the stretch from
/// j, `length` vectors each, is one subtraction. (count + 1)^2 floats: 2.5 MB for a 4-minute song.
struct DiagonalSums: Sendable {
    private let sums: [Float]
    private let width: Int

    init(_ vectors: [[Float]]) {
        let count = vectors.count
        let flat = vectors.flatMap { $0 }
        let dimension = vectors.first?.count ?? 0
        let width = count + 1
        var table = [Float](repeating: 0, count: width * width)
        flat.withUnsafeBufferPointer { v in
            for i in 0..<count {
                for j in 0..<count {
                    var dot: Float = 0
                    for k in 0..<dimension { dot += v[i * dimension + k] * v[j * dimension + k] }
                    table[(i + 1) * width + j + 1] = table[i * width + j] + dot
                }
            }
        }
        self.sums = table
        self.width = width
    }

    /// The mean likeness of the stretches from `i` and from `j`, `length` vectors each (both
    /// inside the sequence).
    func mean(from i: Int, _ j: Int, length: Int) -> Float {
        (sums[(i + length) * width + j + length] - sums[i * width + j]) / Float(length)
    }
}
