/// The settings' documentation, made from their declarations so it cannot drift from them:
/// `juke serve --help`, docs/SETTINGS.md and `.env.example` (`juke settings` prints the last
/// two, and a test checks the files in the repository are what it prints).
public enum SettingsDocs {
    /// The lines `juke serve --help` shows under its usage.
    public static func help(_ groups: [any SettingsGroup.Type]) -> String {
        groups.map { group in
            ([group.title.uppercased() + " SETTINGS (flag, or environment variable):"]
                + group.settings.map { setting in
                    // Wrapped here, short of a terminal's 80 columns, so that the help keeps its indent.
                    (["  " + usage(setting)]
                        + wrap("\(setting.help) Env \(setting.environment); default \(setting.defaultValue).", width: 70).map { "      " + $0 })
                        .joined(separator: "\n")
                })
                .joined(separator: "\n")
        }
        .joined(separator: "\n\n")
    }

    /// docs/SETTINGS.md: a table per group.
    public static func markdown(_ groups: [any SettingsGroup.Type]) -> String {
        var lines = [
            "# Settings",
            "",
            "<!-- Made by `juke settings --markdown` from the settings the platform and each app declare; a test checks it. -->",
            "",
            "Every setting is a flag of `juke serve` and an environment variable; a flag wins over its variable.",
            "`.env.example` lists the variables.",
        ]
        for group in groups {
            lines += ["", "## \(group.title)", "", "| Flag | Environment | Default | What it does |", "|---|---|---|---|"]
            for setting in group.settings {
                lines.append("| `\(cell(usage(setting)))` | `\(setting.environment)` | \(cell(setting.defaultValue)) | \(cell(setting.help)) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `.env.example`: every variable, commented out, with what it does.
    public static func environmentExample(_ groups: [any SettingsGroup.Type]) -> String {
        var lines = [
            "# Juke's settings as environment variables (made by `juke settings --env` from their",
            "# declarations). Copy to .env, uncomment what you change; `juke serve --help` says the same.",
        ]
        for group in groups {
            lines += ["", "# == \(group.title)"]
            for setting in group.settings {
                lines += wrap("\(setting.help) Default: \(setting.defaultValue).", width: 98).map { "# " + $0 }
                lines.append("# \(setting.environment)=\(setting.example ?? "")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func usage(_ setting: Setting) -> String {
        switch setting.kind {
        case .value(let placeholder): "\(setting.flag) <\(placeholder)>"
        case .list(let placeholder): "\(setting.flag) <\(placeholder)> (repeatable; commas in the environment)"
        case .onOff: "\(setting.flag), --no-\(setting.name)"
        }
    }

    private static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
