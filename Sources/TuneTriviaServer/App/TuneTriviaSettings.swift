import JukePlatform

/// TuneTrivia's settings: which model words AI trivia, when the platform has an
/// OpenAI-compatible service (`--openai-base-url`, shared with Back2Back's DJ).
public struct TuneTriviaSettings: SettingsGroup {
    public static let title = "TuneTrivia"

    static let triviaModel = Setting(
        "trivia-model", kind: .value(placeholder: "model"), default: "gpt-4o-mini", help: "The model that words trivia.")

    public static let settings = [triviaModel]

    /// The model asked for each round's trivia.
    public var triviaModel = "gpt-4o-mini"

    public init() {}

    public init(_ values: SettingValues) throws {
        if let model = values.text(Self.triviaModel) {
            guard model.count <= 200, model.allSatisfy({ !$0.isWhitespace && !$0.isNewline }) else {
                throw SettingError("\(Self.triviaModel.label) is a model's name, like gpt-4o-mini")
            }
            triviaModel = model
        }
    }
}
