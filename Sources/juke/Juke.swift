import ArgumentParser

@main
struct Juke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "juke",
        abstract: "Juke: a self-hosted music platform (TuneTrivia, Back2Back, Dual Player, RunBeat).",
        subcommands: [
            Serve.self, LibraryCommand.self, UserCommand.self, TagsCommand.self, ChaptersCommand.self, FeedCommand.self, ArticleCommand.self,
            WorkoutCommand.self, ZonesCommand.self, MatchCommand.self,
            ResolveCommand.self, SettingsCommand.self,
        ],
        defaultSubcommand: Serve.self
    )
}
