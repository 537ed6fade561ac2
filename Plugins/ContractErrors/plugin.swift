import Foundation
import PackagePlugin

/// Generates, for an API module, the `ContractErrorResponse` conformance of every operation's
/// output from the same openapi.yaml and tag filter that swift-openapi-generator reads, so
/// each operation can return exactly the error responses the contract declares for it.
@main
struct ContractErrors: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles.map(\.url)
        guard let spec = files.first(where: { $0.lastPathComponent == "openapi.yaml" }),
            let config = files.first(where: { $0.lastPathComponent == "openapi-generator-config.yaml" })
        else { throw PluginError(message: "\(target.name) has no openapi.yaml and openapi-generator-config.yaml") }
        let output = context.pluginWorkDirectoryURL.appending(path: "ContractErrors.swift")
        return [
            .buildCommand(
                displayName: "Generating \(target.name)'s contract error responses",
                executable: try context.tool(named: "ContractErrorsTool").url,
                arguments: [spec.path, config.path, output.path],
                inputFiles: [spec, config],
                outputFiles: [output]
            )
        ]
    }
}

struct PluginError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
