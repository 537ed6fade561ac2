import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where a path really leads, and whether that is inside a library folder: the scanner
/// indexes nothing a symlink takes outside the folder, and the audio route serves nothing
/// outside the folders (a scanned file replaced by a link to /etc/shadow stays unserved).
public enum LibraryPaths {
    /// The absolute path with every symlink, "." and ".." resolved; nil when it does not
    /// exist (a dangling link).
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `path` (already real) is `root` (already real) or lies under it.
    public static func isInside(_ path: String, root: String) -> Bool {
        if root == "/" { return path.hasPrefix("/") }
        return path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// `path` (already real) lies in one of the library's `folders` (as stored; each is
    /// resolved here): what the audio and chapter routes ask before opening a track's file.
    public static func isInside(_ path: String, anyOf folders: [String]) -> Bool {
        folders.contains { folder in realPath(folder).map { isInside(path, root: $0) } ?? false }
    }

    /// A file's identity on disk (device and inode): the same directory reached twice
    /// through links is one directory.
    struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }
}
