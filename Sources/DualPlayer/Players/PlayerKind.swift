/// Dual Player's two players. Music and speech play at the same time, each with its own
/// transport, speed, volume and audio path.
public enum PlayerKind: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case music
    case speech
}
