import ArgumentParser
import JukePlatform
import JukeServer

/// Prints the settings' documentation made from their declarations: docs/SETTINGS.md
/// (`--markdown`) or `.env.example` (`--env`); a test checks the repository's copies.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "settings", abstract: "Prints every setting, as docs/SETTINGS.md or .env.example.")

    @Flag(name: .long, help: "docs/SETTINGS.md: a table per part of Juke.")
    var markdown = false

    @Flag(name: .long, help: ".env.example: every environment variable, commented out.")
    var env = false

    func run() throws {
        switch (markdown, env) {
        case (true, false): print(SettingsDocs.markdown(JukeServer.Juke.settings), terminator: "")
        case (false, true): print(SettingsDocs.environmentExample(JukeServer.Juke.settings), terminator: "")
        case (false, false): print(SettingsDocs.help(JukeServer.Juke.settings))
        case (true, true): throw ValidationError("--markdown or --env, not both")
        }
    }
}
