import Foundation
import JukeCore
import MediaStorage
import Testing

/// What needs no server: the `s3://` setting, the addresses a bucket is reached at, and
/// that no description says the secret.
@Suite(.timeLimit(.minutes(1)))
struct S3SettingsTests {
    @Test func readsBucketAndPrefix() throws {
        #expect(try S3Location.parse("s3://juke-media") == S3Location(bucket: "juke-media", prefix: nil))
        #expect(try S3Location.parse("s3://juke-media/") == S3Location(bucket: "juke-media", prefix: nil))
        #expect(try S3Location.parse("s3://juke.media.1/servers/eu") == S3Location(bucket: "juke.media.1", prefix: "servers/eu"))
        #expect(try S3Location.parse("s3://abc/p/") == S3Location(bucket: "abc", prefix: "p"))
        #expect(try S3Location.parse("s3://juke-media/servers/eu").description == "s3://juke-media/servers/eu")
    }

    @Test(arguments: [
        "juke-media", "S3://juke-media", "http://juke-media", "s3://", "s3://ab", "s3://\(String(repeating: "a", count: 64))", "s3://Juke-Media",
        "s3://juke_media", "s3://-juke", "s3://juke-", "s3://juke..media", "s3://192.168.1.10", "s3://juke/a//b", "s3://juke/../x",
        "s3://juke/a b", "s3://juke/ü",
    ])
    func refusesWhatS3WouldNot(_ setting: String) {
        #expect(throws: S3Location.Invalid.self) { try S3Location.parse(setting) }
    }

    @Test func theRefusalSaysWhy() {
        do {
            _ = try S3Location.parse("s3://Juke")
            Issue.record("parsed")
        } catch {
            #expect(error.description.contains("lowercase"))
        }
    }

    func bucket(_ location: String, endpoint: String?, region: String = "eu-west-1") throws -> S3Bucket {
        let configuration = S3Configuration(
            location: try S3Location.parse(location), endpoint: endpoint.flatMap(URL.init(string:)), region: region,
            credentials: S3Credentials(accessKeyID: "AKIDJUKE", secretAccessKey: "very-secret-key"))
        return S3Bucket(configuration: configuration, clock: WallClock { Date(timeIntervalSince1970: 1_369_353_600) })
    }

    @Test func awsIsAddressedByVirtualHostAndOtherServersByPath() async throws {
        let key = try #require(StorageKey("dual/books/b.mp3"))
        let aws = try bucket("s3://juke-media/eu", endpoint: nil)
        let awsURL = try await aws.toolInput(key, lifetime: .seconds(3600))
        #expect(awsURL.hasPrefix("https://juke-media.s3.eu-west-1.amazonaws.com/eu/dual/books/b.mp3?X-Amz-Algorithm=AWS4-HMAC-SHA256&"), "\(awsURL)")
        #expect(awsURL.contains("X-Amz-Credential=AKIDJUKE%2F20130524%2Feu-west-1%2Fs3%2Faws4_request"))
        #expect(awsURL.contains("X-Amz-Date=20130524T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature="))
        // Dots in a bucket's name are not covered by AWS's certificate: path-style.
        let dotted = try await bucket("s3://juke.media", endpoint: nil).toolInput(key, lifetime: .seconds(60))
        #expect(dotted.hasPrefix("https://s3.eu-west-1.amazonaws.com/juke.media/dual/books/b.mp3?"), "\(dotted)")
        let seaweed = try bucket("s3://juke-media", endpoint: "http://127.0.0.1:8333")
        #expect(try await seaweed.toolInput(key, lifetime: .seconds(60)).hasPrefix("http://127.0.0.1:8333/juke-media/dual/books/b.mp3?"))
        #expect(seaweed.localPath(key) == nil)
        // A lifetime past S3's 7 days is cut to them.
        #expect(try await aws.toolInput(key, lifetime: .seconds(30 * 86_400)).contains("X-Amz-Expires=604800&"))
        for store in [aws, seaweed] { try await store.shutdown() }
    }

    @Test func summariesNameTheBucketAndWhere() throws {
        #expect(try bucket("s3://juke-media/eu", endpoint: "http://127.0.0.1:8333").summary == "s3://juke-media/eu at http://127.0.0.1:8333")
        #expect(try bucket("s3://juke-media", endpoint: nil).summary == "s3://juke-media at AWS eu-west-1")
    }

    @Test func credentialsAndRegionComeFromAWSsVariables() {
        let environment = ["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_DEFAULT_REGION": "eu-central-1"]
        #expect(S3Environment.credentials(environment) == S3Credentials(accessKeyID: "AKID", secretAccessKey: "secret"))
        #expect(S3Environment.credentials(["AWS_ACCESS_KEY_ID": "AKID"]) == nil)
        #expect(S3Environment.credentials(["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": ""]) == nil)
        #expect(S3Environment.credentials(environment.merging(["AWS_SESSION_TOKEN": "t"]) { $1 })?.sessionToken == "t")
        #expect(S3Environment.region(setting: "eu-west-3", environment) == "eu-west-3")
        #expect(S3Environment.region(setting: nil, environment) == "eu-central-1")
        #expect(S3Environment.region(setting: nil, environment.merging(["AWS_REGION": "ap-south-1"]) { $1 }) == "ap-south-1")
        #expect(S3Environment.region(setting: "", [:]) == "us-east-1")
    }

    @Test func noDescriptionSaysTheSecret() throws {
        let store = try bucket("s3://juke-media/eu", endpoint: "http://127.0.0.1:8333")
        var dumped = ""
        dump(store.configuration, to: &dumped)
        for text in [store.summary, store.configuration.description, "\(store.configuration)", String(reflecting: store.configuration), dumped] {
            #expect(!text.contains("very-secret-key"), "\(text)")
        }
        #expect(store.configuration.description.contains("AKIDJUKE"))
    }
}
