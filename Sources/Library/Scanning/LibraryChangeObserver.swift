public import Storage

/// Told of each batch a scan saves, so that what keeps a copy of the library (the search
/// index) follows it in place instead of reading the library again.
public protocol LibraryChangeObserver: Sendable {
    /// A batch is about to be saved: the library's generation will move, and the change
    /// follows (`applied`).
    func willApply() async
    /// The batch was saved (nil: it changed no track, or it failed and changed nothing).
    func applied(_ change: LibraryStore.AppliedChanges?) async
}
