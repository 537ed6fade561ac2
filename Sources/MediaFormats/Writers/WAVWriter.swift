/// Writes a 16-bit PCM RIFF WAVE file with LIST/INFO text and an optional "id3 " chunk.
public struct WAVWriter: Sendable {
    public var sampleRate: Int
    public var channels: Int
    public var info: [(id: String, value: String)] = []
    public var id3: [UInt8]?

    public init(sampleRate: Int, channels: Int = 1) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public func encode(samples: [Int16]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(samples.count * 2 + 4096)
        func u32(_ v: Int) { out += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 24) & 0xFF)] }
        func u16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func chunk(_ id: String, _ body: [UInt8]) {
            out += Array(id.utf8)
            u32(body.count)
            out += body
            if body.count % 2 == 1 { out.append(0) }
        }
        out += Array("RIFF".utf8)
        u32(0)  // patched below
        out += Array("WAVE".utf8)
        var fmt: [UInt8] = []
        func f16(_ v: Int) { fmt += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func f32(_ v: Int) { fmt += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 24) & 0xFF)] }
        f16(1)
        f16(channels)
        f32(sampleRate)
        f32(sampleRate * channels * 2)
        f16(channels * 2)
        f16(16)
        chunk("fmt ", fmt)
        if !info.isEmpty {
            var list: [UInt8] = Array("INFO".utf8)
            for (id, value) in info {
                let text = Array(value.utf8) + [0]
                list += Array(id.utf8.prefix(4))
                let n = text.count
                list += [UInt8(n & 0xFF), UInt8((n >> 8) & 0xFF), UInt8((n >> 16) & 0xFF), UInt8((n >> 24) & 0xFF)]
                list += text
                if n % 2 == 1 { list.append(0) }
            }
            chunk("LIST", list)
        }
        var data: [UInt8] = []
        data.reserveCapacity(samples.count * 2)
        for s in samples {
            let v = UInt16(bitPattern: s)
            data.append(UInt8(v & 0xFF))
            data.append(UInt8(v >> 8))
        }
        chunk("data", data)
        if let id3 { chunk("id3 ", id3) }
        let riffSize = out.count - 8
        out[4] = UInt8(riffSize & 0xFF)
        out[5] = UInt8((riffSize >> 8) & 0xFF)
        out[6] = UInt8((riffSize >> 16) & 0xFF)
        out[7] = UInt8((riffSize >> 24) & 0xFF)
        return out
    }
}
