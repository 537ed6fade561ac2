/// The settings one part of Juke declares and reads: the platform's, or an app's. The
/// composition root lists every group; `juke serve` reads them all from its command line and
/// environment, and each part finds its own in `ServerConfiguration.groups`.
public protocol SettingsGroup: Sendable {
    /// Its heading in the docs: "Server", "Dual Player".
    static var title: String { get }
    /// What it declares, in the order the docs list them.
    static var settings: [Setting] { get }
    /// Every setting at its default (what tests and a bare `juke serve` get).
    init()
    /// Reads the group from what was given, checking each value; defaults for the rest.
    init(_ values: SettingValues) throws
}

/// Each group's values by type, kept in the server's configuration: the platform holds them
/// without knowing any app's type. A group never stored reads as its defaults.
public struct SettingsGroups: Sendable {
    private var groups: [ObjectIdentifier: any SettingsGroup] = [:]

    public init() {}

    public subscript<Group: SettingsGroup>(_ type: Group.Type) -> Group {
        get { groups[ObjectIdentifier(type)] as? Group ?? Group() }
        set { groups[ObjectIdentifier(type)] = newValue }
    }

    /// Stores a group read by `juke serve`, whose type is known only as a value.
    public mutating func store(_ group: any SettingsGroup) {
        groups[ObjectIdentifier(Swift.type(of: group))] = group
    }
}
