/// What AWS's own tools read from the environment, read the same way here, so a server
/// started with AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (AWS_SESSION_TOKEN) and AWS_REGION
/// needs no S3 settings of its own.
public enum S3Environment {
    /// The access key, or nil when either part of it is missing or empty.
    public static func credentials(_ environment: [String: String]) -> S3Credentials? {
        guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty, let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else {
            return nil
        }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
    }

    /// The region a setting names, else AWS_REGION, else AWS_DEFAULT_REGION, else us-east-1
    /// (what S3-compatible servers such as SeaweedFS and MinIO expect by default).
    public static func region(setting: String?, _ environment: [String: String]) -> String {
        for candidate in [setting, environment["AWS_REGION"], environment["AWS_DEFAULT_REGION"]] {
            if let candidate, !candidate.isEmpty { return candidate }
        }
        return "us-east-1"
    }
}
