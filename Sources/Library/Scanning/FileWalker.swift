import Foundation
import MediaFormats

#if canImport(Glibc)
    import Glibc
#endif

/// Lists the audio files under a folder with their size and modification time, using
/// `stat` only: nothing is opened, which is what makes an unchanged rescan fast.
enum FileWalker {
    struct Entry: Sendable {
        let path: String
        let size: Int64
        let modifiedMillis: Int64
    }

    static func audioFiles(under root: String) throws -> [Entry] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LibraryError.notAFolder(root)
        }
        var out: [Entry] = []
        var stack = [root]
        while let dir = stack.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for name in names where !name.hasPrefix(".") {
                let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    stack.append(path)
                } else if (info.st_mode & S_IFMT) == S_IFREG,
                    let dot = name.lastIndex(of: "."),
                    TagReader.extensions.contains(name[name.index(after: dot)...].lowercased())
                {
                    let millis = Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000
                    out.append(Entry(path: path, size: Int64(info.st_size), modifiedMillis: millis))
                }
            }
        }
        return out.sorted { $0.path < $1.path }
    }
}

public enum LibraryError: Error, CustomStringConvertible, Equatable {
    case notAFolder(String)

    public var description: String {
        switch self {
        case .notAFolder(let path): "not a readable folder: \(path)"
        }
    }
}
