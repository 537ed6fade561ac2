import ArgumentParser
import Foundation
import JukePlatform
import JukeServer

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "user", abstract: "Manages accounts.", subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Creates an account.",
            discussion: "The password is read from --password-stdin, or asked for on the terminal."
        )
        @OptionGroup var data: DataOptions
        @Argument(help: "The username (3-32 letters, digits, '.', '_' or '-').") var username: String
        @Flag(name: .long, help: "Make the account an admin.") var admin = false
        @Option(name: .long, help: "Email address.") var email: String?
        @Option(name: .long, help: "Name shown to others (default: the username).") var displayName: String?
        @Flag(name: .long, help: "Read the password from standard input (one line).") var passwordStdin = false

        func run() async throws {
            let password: String
            if passwordStdin {
                guard let line = readLine(strippingNewline: true) else { throw ValidationError("no password on standard input") }
                password = line
            } else {
                guard let typed = getpass("Password for \(username): ") else { throw ValidationError("no password given") }
                password = String(cString: typed)
            }
            try await withServices(data) { services in
                do {
                    let user = try await services.platform.createAccount(
                        username: username, password: password, email: email, displayName: displayName, isAdmin: admin
                    )
                    print("Created \(user.isAdmin ? "admin" : "user") \(user.username) (\(user.id)).")
                } catch let error as AccountError {
                    throw ValidationError(error.message)
                }
            }
        }
    }
}
