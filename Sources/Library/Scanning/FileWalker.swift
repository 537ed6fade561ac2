import Foundation
import MediaFormats

#if canImport(Glibc)
    import Glibc
#endif

/// Lists the audio files under a folder with their size and modification time, using
/// `stat` only: nothing is opened, which is what makes an unchanged rescan fast.
///
/// Symlinks are followed only while they stay inside the folder (a link out of it is not
/// indexed), and each directory and file is visited once by device and inode: a link to a
/// parent folder, or two links to ".", would otherwise index files over and over or never
/// end.
enum FileWalker {
    struct Entry: Sendable {
        let path: String
        let size: Int64
        let modifiedMillis: Int64
    }

    static func audioFiles(under root: String) throws -> [Entry] {
        var rootInfo = stat()
        guard let realRoot = LibraryPaths.realPath(root), stat(realRoot, &rootInfo) == 0, (rootInfo.st_mode & S_IFMT) == S_IFDIR else {
            throw LibraryError.notAFolder(root)
        }
        var visited: Set<LibraryPaths.FileID> = []
        var listed: Set<LibraryPaths.FileID> = []
        var out: [Entry] = []
        // What is reached through a link comes last, so that a file reachable both ways is
        // listed under its own path rather than the link's.
        var folders = [root]
        var linkedFolders: [String] = []
        var linkedFiles: [(path: String, info: stat)] = []
        func list(_ path: String, _ info: stat) {
            guard listed.insert(LibraryPaths.FileID(info)).inserted else { return }
            let millis = Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000
            out.append(Entry(path: path, size: Int64(info.st_size), modifiedMillis: millis))
        }
        while let (dir, throughLink) = folders.popLast().map({ ($0, false) }) ?? linkedFolders.popLast().map({ ($0, true) }) {
            // Each folder once, however many ways lead to it (marked when listed, so that a
            // folder's own path, listed first, wins over a link's).
            var folderInfo = stat()
            guard stat(dir, &folderInfo) == 0, visited.insert(LibraryPaths.FileID(folderInfo)).inserted else { continue }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                var linked = throughLink
                if (info.st_mode & S_IFMT) == S_IFLNK {
                    // Where the link leads, if that is inside the folder.
                    guard let real = LibraryPaths.realPath(path), LibraryPaths.isInside(real, root: realRoot), stat(real, &info) == 0 else { continue }
                    linked = true
                }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    if visited.contains(LibraryPaths.FileID(info)) { continue }
                    if linked { linkedFolders.append(path) } else { folders.append(path) }
                } else if (info.st_mode & S_IFMT) == S_IFREG, let dot = name.lastIndex(of: "."),
                    TagReader.extensions.contains(name[name.index(after: dot)...].lowercased())
                {
                    if linked { linkedFiles.append((path, info)) } else { list(path, info) }
                }
            }
        }
        for (path, info) in linkedFiles { list(path, info) }
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
