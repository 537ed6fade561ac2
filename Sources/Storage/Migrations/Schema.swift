/// One module's tables, as the ordered list of migrations that builds them. The platform
/// has one and every app brings its own, numbered from 1 on its own: an app adds tables
/// without editing anything outside its module. Append; never edit a migration that has
/// shipped.
public struct Schema: Sendable {
    /// The module's stable name, recorded beside each applied version.
    public let module: String
    public let migrations: [Migration]
    /// Databases made before each module had its own numbering recorded every migration in
    /// one list (`schema_migrations`): old version to this module's version, so that such a
    /// database is not migrated twice. A new module leaves it empty.
    public let formerVersions: [Int: Int]

    public init(module: String, migrations: [Migration], formerVersions: [Int: Int] = [:]) {
        self.module = module
        self.migrations = migrations
        self.formerVersions = formerVersions
    }

    public var latestVersion: Int { migrations.map(\.version).max() ?? 0 }
}
