import Back2BackServer
import DualPlayerServer
import Foundation
import JukePlatform
import MediaStorage
import RunBeatServer
import Testing
import TuneTriviaServer

@testable import JukeServer

/// The settings the platform and the apps declare: read one way from flags and environment,
/// refused with a message naming the setting, and documented from the same declarations.
@Suite(.timeLimit(.minutes(2))) struct SettingsTests {
    static let all = Juke.settings.flatMap { $0.settings }

    static func read(_ arguments: [String], _ environment: [String: String] = [:]) throws -> SettingValues {
        try SettingValues.parse(arguments: arguments, environment: environment, settings: all)
    }

    @Test func flagsWinOverTheEnvironmentAndEachFormIsRead() throws {
        let values = try Self.read(
            ["--port=9000", "--no-demo", "--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "127.0.0.1", "--radio-allow-private-streams"],
            ["JUKE_PORT": "7000", "JUKE_HOST": "0.0.0.0", "JUKE_ALLOWED_ORIGINS": "https://a.example, https://b.example", "JUKE_DEMO": "1"])
        let platform = try PlatformSettings(values)
        #expect(platform.port == 9000, "the flag, not JUKE_PORT")
        #expect(platform.host == "0.0.0.0", "the environment where no flag is given")
        #expect(platform.demo == false)
        #expect(platform.trustedProxies.map(\.description) == ["10.0.0.0/8", "127.0.0.1/32"])
        #expect(platform.allowedOrigins == ["https://a.example", "https://b.example"])
        #expect(try DualPlayerSettings(values).radioAllowPrivateStreams)
    }

    @Test func aValueASettingCannotTakeIsRefusedByName() throws {
        func refusal(_ arguments: [String], _ environment: [String: String] = [:], build: (SettingValues) throws -> Void = { _ in }) -> String? {
            do {
                try build(try Self.read(arguments, environment))
                return nil
            } catch let error as SettingError {
                return error.description
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal(["--bogus", "1"])?.contains("unknown option '--bogus'") == true)
        #expect(refusal(["--port"])?.contains("--port needs a value") == true)
        #expect(refusal(["stray"])?.contains("unexpected argument 'stray'") == true)
        // Before, JUKE_RADIO_ALLOW_PRIVATE_STREAMS=on meant off without a word.
        #expect(
            refusal([], ["JUKE_RADIO_ALLOW_PRIVATE_STREAMS": "maybe"]) { _ = try DualPlayerSettings($0) }
                == "--radio-allow-private-streams (or JUKE_RADIO_ALLOW_PRIVATE_STREAMS) is on or off (1 or 0), not 'maybe'")
        #expect(try DualPlayerSettings(try Self.read([], ["JUKE_RADIO_ALLOW_PRIVATE_STREAMS": "on"])).radioAllowPrivateStreams)
        #expect(
            refusal(["--podcast-search-url", "ftp://x"]) { _ = try DualPlayerSettings($0) }
                == "--podcast-search-url (or JUKE_PODCAST_SEARCH_URL) is an http(s) address, not 'ftp://x'")
        #expect(try DualPlayerSettings(try Self.read(["--podcast-search-url", "off"])).podcastSearchURL == nil)
        #expect(refusal(["--podcast-refresh-minutes", "0"]) { _ = try DualPlayerSettings($0) }?.contains("from 1 to 10080") == true)
        #expect(refusal(["--port", "99999"]) { _ = try PlatformSettings($0) }?.contains("from 1 to 65535") == true)
        #expect(refusal(["--sign-ups-per-address", "many"]) { _ = try PlatformSettings($0) }?.contains("not 'many'") == true)
        #expect(refusal(["--spotify-client-id", "abc", "--spotify-token-key", "short"]) { _ = try RunBeatSettings($0) }?.contains("32 bytes") == true)
        #expect(refusal(["--openai-base-url", "https://ai.example"]) { _ = try PlatformSettings($0) }?.contains("needs an API key") == true)
    }

    @Test func aBucketIsChosenOnlyByTheStorageSettingAndNeedsItsKey() throws {
        let aws = ["AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "AWS_REGION": "eu-west-1"]
        // The AWS variables alone (set for other tools) keep files in the data folder.
        #expect(try PlatformSettings(try Self.read([], aws)).bucket == nil)
        let bucket = try #require(
            try PlatformSettings(try Self.read(["--storage", "s3://juke-media/party/", "--s3-endpoint", "http://127.0.0.1:8333"], aws)).bucket)
        #expect(bucket.location == S3Location(bucket: "juke-media", prefix: "party"))
        #expect(bucket.endpoint?.absoluteString == "http://127.0.0.1:8333" && bucket.region == "eu-west-1", "AWS_REGION when no --s3-region")
        #expect(try PlatformSettings(try Self.read(["--storage", "s3://juke-media", "--s3-region", "us-west-2"], aws)).bucket?.region == "us-west-2")
        #expect(
            try PlatformSettings(try Self.read(["--storage", "s3://juke-media"], [:].merging(aws) { a, _ in a }.filter { $0.key != "AWS_REGION" })).bucket?
                .region == "us-east-1")
        #expect(!"\(bucket)".contains("wJalrXUtnFEMI"), "the secret is in no description")
        #expect(try PlatformSettings(try Self.read(["--storage", "s3://juke-media"], aws)).configuration().mediaStore?.summary.contains("juke-media") == true)

        func refusal(_ arguments: [String], _ environment: [String: String]) -> String? {
            do {
                _ = try PlatformSettings(try Self.read(arguments, environment))
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal(["--storage", "s3://juke-media"], [:])?.contains("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY") == true)
        #expect(refusal(["--storage", "/srv/media"], aws)?.contains("is not an S3 location") == true)
        #expect(refusal(["--storage", "s3://Juke_Media"], aws)?.contains("is not a bucket name") == true)
        #expect(refusal(["--storage", "s3://juke-media/../x"], aws)?.contains("is not a prefix") == true)
        #expect(refusal(["--s3-endpoint", "http://127.0.0.1:8333"], aws)?.contains("names no bucket") == true)
        #expect(refusal(["--storage", "s3://juke-media", "--s3-endpoint", "http://h:1/bucket"], aws)?.contains("the server's address alone") == true)
        #expect(refusal(["--storage", "s3://juke-media", "--s3-region", "eu west"], aws)?.contains("region name") == true)
    }

    /// The bucket's calls go through the server's one outbound client (the configuration's,
    /// which the platform shares and the service group shuts down), not a client of its own:
    /// once that client is shut down, the bucket's calls fail for it.
    @Test func theBucketCallsThroughTheServersOneClient() async throws {
        let aws = ["AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"]
        let configuration = try PlatformSettings(try Self.read(["--storage", "s3://juke-media", "--s3-endpoint", "http://127.0.0.1:9"], aws)).configuration()
        let bucket = try #require(configuration.mediaStore)
        try await configuration.http.shutdown()
        do {
            _ = try await bucket.info(try #require(StorageKey("dual/books/a.m4b")))
            Issue.record("the bucket answered without the server's client")
        } catch let error as MediaStoreError {
            #expect("\(error)".contains("alreadyShutdown"), "\(error)")
        }
        try await bucket.shutdown()
    }

    @Test func anAppsGroupReachesItFromTheConfiguration() throws {
        var configuration = try PlatformSettings().configuration()
        #expect(configuration.groups[RunBeatSettings.self].spotify == nil, "a group never stored reads as its defaults")
        configuration.groups.store(try RunBeatSettings(try Self.read(["--spotify-client-id", "juke-app"])))
        #expect(configuration.groups[RunBeatSettings.self].spotify?.clientID == "juke-app")
        #expect(configuration.groups[DualPlayerSettings.self].podcastRefreshInterval == 1800)
    }

    /// The trivia model and the outside catalog are TuneTrivia's and Back2Back's own: the
    /// platform's settings hold only what several apps use.
    @Test func eachAppReadsTheSettingsOnlyItUses() throws {
        let values = try Self.read(["--trivia-model", "gpt-5-mini", "--itunes-search-url", "https://itunes.apple.com"])
        #expect(try TuneTriviaSettings(values).triviaModel == "gpt-5-mini")
        #expect(try Back2BackSettings(values).catalog?.description == "iTunes Search at https://itunes.apple.com")
        #expect(try TuneTriviaSettings(try Self.read([])).triviaModel == "gpt-4o-mini")
        #expect(try Back2BackSettings(try Self.read([])).catalog == nil)
        #expect(throws: SettingError.self) { try TuneTriviaSettings(try Self.read(["--trivia-model", "two words"])) }
        let platformNames = Set(PlatformSettings.settings.map(\.name))
        #expect(platformNames.isDisjoint(with: ["trivia-model", "apple-music-key-file", "itunes-search-url"]))
    }

    @Test func everySettingHasOneFlagAndOneVariable() {
        #expect(Set(Self.all.map(\.name)).count == Self.all.count)
        #expect(Set(Self.all.map(\.environment)).count == Self.all.count)
        // Juke's own variables, and AWS's standard ones for a bucket's key and region (what
        // every S3 tool reads, so one environment serves them all).
        let aws: Set = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION"]
        #expect(Self.all.allSatisfy { ($0.environment.hasPrefix("JUKE_") || aws.contains($0.environment)) && !$0.help.isEmpty })
    }

    /// docs/SETTINGS.md and .env.example are what `juke settings` prints: a setting added,
    /// changed or removed without regenerating them fails here.
    @Test func theDocsAreMadeFromTheDeclarations() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let markdown = try String(contentsOf: root.appendingPathComponent("docs/SETTINGS.md"), encoding: .utf8)
        let example = try String(contentsOf: root.appendingPathComponent(".env.example"), encoding: .utf8)
        #expect(markdown == SettingsDocs.markdown(Juke.settings), "run: juke settings --markdown > docs/SETTINGS.md")
        #expect(example == SettingsDocs.environmentExample(Juke.settings), "run: juke settings --env > .env.example")
    }
}
