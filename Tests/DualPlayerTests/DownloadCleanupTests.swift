import Foundation
import Testing

@testable import DualPlayer

/// The storage limit's cleanup: played episodes go, the longest-held first, until the rest fits;
/// unplayed ones never go, and a download that cannot fit is refused.
@Suite(.timeLimit(.minutes(5))) struct DownloadCleanupTests {
    let ids = (0..<5).map { _ in EpisodeID(rawValue: UUID()) }

    func held(_ index: Int, _ bytes: Int64, played: Bool, day: Double) -> DownloadCleanup.Held {
        DownloadCleanup.Held(id: ids[index], bytes: bytes, playedByAll: played, finishedAt: Date(timeIntervalSince1970: day * 86_400))
    }

    @Test func playedEpisodesGoOldestFirstUntilTheRestFits() {
        let all = [
            held(0, 400, played: true, day: 3), held(1, 300, played: true, day: 1), held(2, 500, played: false, day: 0), held(3, 200, played: true, day: 2),
        ]
        #expect(DownloadCleanup.toRemove(all, limit: 2000).isEmpty, "under the limit: nothing goes")
        #expect(DownloadCleanup.toRemove(all, limit: 1200) == [ids[1]], "1400 held: the oldest played one goes")
        #expect(DownloadCleanup.toRemove(all, limit: 900) == [ids[1], ids[3]])
        #expect(DownloadCleanup.toRemove(all, limit: 100) == [ids[1], ids[3], ids[0]], "never the unplayed one")
    }

    @Test func aDownloadThatCannotFitIsRefused() {
        let all = [held(0, 400, played: true, day: 1), held(1, 500, played: false, day: 0)]
        #expect(DownloadCleanup.hasRoom(for: 400, all, limit: 1000), "the played one can go")
        #expect(!DownloadCleanup.hasRoom(for: 600, all, limit: 1000), "the unplayed one cannot")
        #expect(DownloadCleanup.hasRoom(for: 0, [], limit: 0))
    }
}
