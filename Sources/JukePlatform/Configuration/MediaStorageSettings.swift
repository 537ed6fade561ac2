import Foundation
import JukeCore
import MediaStorage

/// Where people's files are kept: the data folder (the default), or an S3-compatible bucket
/// that several servers share. Read with the platform's settings (`PlatformSettings`).
enum MediaStorageSettings {
    static let storage = Setting(
        "storage", kind: .value(placeholder: "s3://bucket[/prefix]"), default: "the data folder",
        help:
            "Where uploaded books and songs, podcast downloads, LibriVox books, spoken articles, covers and the transcode cache are kept: s3://BUCKET[/PREFIX] for an S3-compatible bucket every server shares (with one PostgreSQL database).",
        example: "s3://juke-media/party")
    static let endpoint = Setting(
        "s3-endpoint", kind: .value(placeholder: "url"), default: "AWS S3",
        help: "An S3-compatible server's address (MinIO, Garage, SeaweedFS, Ceph's RADOS Gateway), addressed path-style.",
        example: "http://127.0.0.1:8333")
    static let region = Setting(
        "s3-region", kind: .value(placeholder: "region"), default: "AWS_REGION, else us-east-1", help: "The bucket's region, signed into every request.")
    static let awsRegion = Setting(
        "aws-region", environment: "AWS_REGION", kind: .value(placeholder: "region"), default: "none",
        help: "AWS's own region variable, used when --s3-region is not given.")
    static let accessKeyID = Setting(
        "s3-access-key-id", environment: "AWS_ACCESS_KEY_ID", kind: .value(placeholder: "id"), default: "none",
        help: "The bucket's access key id (AWS's standard variable).")
    static let secretAccessKey = Setting(
        "s3-secret-access-key", environment: "AWS_SECRET_ACCESS_KEY", kind: .value(placeholder: "secret"), default: "none",
        help: "Its secret (AWS's standard variable): prefer the environment to the command line. It is never logged.")
    static let sessionToken = Setting(
        "s3-session-token", environment: "AWS_SESSION_TOKEN", kind: .value(placeholder: "token"), default: "none",
        help: "A temporary credential's session token, when the key is one.")

    static let settings = [storage, endpoint, region, awsRegion, accessKeyID, secretAccessKey, sessionToken]

    /// The bucket the settings name, or nil for the data folder. The AWS variables alone
    /// choose nothing: they are often set for other tools.
    static func bucket(_ values: SettingValues) throws -> S3Configuration? {
        guard let text = values.text(storage) else {
            for setting in [endpoint, region] where values.text(setting) != nil {
                throw SettingError("\(setting.label) names a bucket's server, but \(storage.label) names no bucket (s3://BUCKET)")
            }
            return nil
        }
        let location: S3Location
        do {
            location = try S3Location.parse(text)
        } catch {
            throw SettingError("\(storage.label): \(error.description)")
        }
        let address = try values.url(endpoint)
        if let address, !(address.path.isEmpty || address.path == "/") || address.query != nil {
            throw SettingError("\(endpoint.label) is the server's address alone, like http://127.0.0.1:8333, not '\(address.absoluteString)'")
        }
        guard let id = values.text(accessKeyID), let secret = values.text(secretAccessKey) else {
            throw SettingError("a bucket needs its access key: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        let credentials = S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: values.text(sessionToken))
        let regionName = values.text(region) ?? values.text(awsRegion) ?? "us-east-1"
        guard regionName.utf8.count <= 64, regionName.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw SettingError("\(region.label) is a region name like eu-west-1, not '\(regionName)'")
        }
        return S3Configuration(location: location, endpoint: address, region: regionName, credentials: credentials)
    }
}
