import Foundation

/// Draws a small cover image for a demo track and encodes it as PNG (stored deflate blocks,
/// so no compression library is needed).
enum CoverArt {
    static let size = 160

    /// A gradient in the genre's colour with concentric rings placed by the title.
    static func png(title: String, genre: String) -> [UInt8] {
        let seed = title.unicodeScalars.reduce(UInt32(2166136261)) { ($0 ^ $1.value) &* 16777619 }
        let genreSeed = genre.unicodeScalars.reduce(UInt32(0)) { $0 &+ $1.value &* 31 }
        let hue = Double(genreSeed % 360)
        let cx = Double(40 + Int(seed % 80)), cy = Double(40 + Int((seed >> 8) % 80))
        var raw: [UInt8] = []
        raw.reserveCapacity(size * (size * 3 + 1))
        for y in 0..<size {
            raw.append(0)  // filter: none
            for x in 0..<size {
                let dx = Double(x) - cx, dy = Double(y) - cy
                let ring = (sin(sqrt(dx * dx + dy * dy) / 6 + Double(seed % 7)) + 1) / 2
                let light = 0.25 + 0.35 * Double(y) / Double(size) + 0.25 * ring
                let (r, g, b) = hsl(hue: hue + 30 * ring, saturation: 0.55, lightness: light)
                raw += [r, g, b]
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += be32(size) + be32(size)
        header += [8, 2, 0, 0, 0]  // 8-bit RGB, deflate, no filter method, no interlace
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    static func hsl(hue: Double, saturation: Double, lightness: Double) -> (UInt8, UInt8, UInt8) {
        let c = (1 - abs(2 * lightness - 1)) * saturation
        let h = hue.truncatingRemainder(dividingBy: 360) / 60
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) =
            switch Int(h) {
            case 0: (c, x, 0)
            case 1: (x, c, 0)
            case 2: (0, c, x)
            case 3: (0, x, c)
            case 4: (x, 0, c)
            default: (c, 0, x)
            }
        let m = lightness - c / 2
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v + m) * 255))) }
        return (byte(r), byte(g), byte(b))
    }

    static func be32(_ v: Int) -> [UInt8] { [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(Int(crc32(typed)))
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset..<offset + n]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(Int(b << 16 | a))
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
