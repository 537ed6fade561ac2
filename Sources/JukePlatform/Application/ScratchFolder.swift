import Foundation

/// Where files are received and made on this server before they are stored
/// (`Platform.scratchFolder`). A loose file at its top level is one request's working copy (an
/// upload being read, an article being spoken): a server stopped part-way leaves it, and
/// nothing comes back for it, so it goes at the next start. A folder is an app's resumable
/// work (an episode's part file, a LibriVox book's sections) and stays.
public enum ScratchFolder {
    public static func path(dataDirectory: String) -> String { dataDirectory + "/scratch" }

    /// Removes the loose files a stopped server left; returns how many.
    @discardableResult
    public static func clearLeftovers(in folder: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var removed = 0
        for name in names {
            let path = folder + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed += 1 }
        }
        return removed
    }
}
