import Articles
import DualPlayer
import DualPlayerAPI
import Foundation
import JukeCore
import JukePlatform
import OpenAPIRuntime

/// The article operations of Dual Player's contract: read the input, call the service, map.
extension DualPlayerHandler {
    func listDualArticles(_ input: Operations.ListDualArticles.Input) async throws -> Operations.ListDualArticles.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let items = try await articles.articles(of: user.id).map { ArticleMapping.summary($0.0, position: $0.1, speech: $0.2) }
            return .ok(.init(body: .json(.init(items: items))))
        }
    }

    func importDualArticle(_ input: Operations.ImportDualArticle.Input) async throws -> Operations.ImportDualArticle.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let stored = try await articles.importURL(body.url, for: user.id)
            return .created(.init(body: .json(ArticleMapping.article(stored, position: nil))))
        }
    }

    func uploadDualArticle(_ input: Operations.UploadDualArticle.Input) async throws -> Operations.UploadDualArticle.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .binary(let body) = input.body else { throw APIError.badRequest("Send the file's bytes (application/octet-stream).") }
            guard input.query.filename.unicodeScalars.count <= 255 else { throw RuleRefusal.invalid("filename", "a file name is at most 255 characters") }
            let bytes = try await [UInt8](collecting: body, upTo: Int(ArticleService.pageLimit))
            let stored = try await articles.importFile(bytes, filename: input.query.filename, for: user.id)
            return .created(.init(body: .json(ArticleMapping.article(stored, position: nil))))
        }
    }

    func getDualArticle(_ input: Operations.GetDualArticle.Input) async throws -> Operations.GetDualArticle.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let id: ArticleID = try parseID(input.path.articleId, field: "article_id")
            let stored = try await articles.article(id, for: user.id)
            return .ok(.init(body: .json(ArticleMapping.article(stored, position: try await articles.position(id, for: user.id)))))
        }
    }

    func deleteDualArticle(_ input: Operations.DeleteDualArticle.Input) async throws -> Operations.DeleteDualArticle.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            try await articles.delete(try parseID(input.path.articleId, field: "article_id"), for: user.id)
            return .noContent(.init())
        }
    }

    func saveDualArticlePosition(_ input: Operations.SaveDualArticlePosition.Input) async throws -> Operations.SaveDualArticlePosition.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let kept = try await articles.savePosition(
                chapter: body.chapter, word: body.word, updatedAt: body.updatedAt, in: try parseID(input.path.articleId, field: "article_id"), for: user.id)
            return .ok(.init(body: .json(ArticleMapping.position(kept))))
        }
    }

    func getDualArticleSpeech(_ input: Operations.GetDualArticleSpeech.Input) async throws -> Operations.GetDualArticleSpeech.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let id: ArticleID = try parseID(input.path.articleId, field: "article_id")
            guard let speech = try await articles.speech(id, for: user.id) else { throw RuleRefusal.notFound("The server has not spoken this article.") }
            return .ok(.init(body: .json(ArticleMapping.speech(speech, id: id))))
        }
    }

    func speakDualArticle(_ input: Operations.SpeakDualArticle.Input) async throws -> Operations.SpeakDualArticle.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let id: ArticleID = try parseID(input.path.articleId, field: "article_id")
            let speech = try await articles.speak(id, for: user.id)
            let body = ArticleMapping.speech(speech, id: id)
            return speech.status == .ready ? .ok(.init(body: .json(body))) : .accepted(.init(body: .json(body)))
        }
    }
}

/// Articles as the contract's JSON: only shapes, no rules.
enum ArticleMapping {
    typealias S = Components.Schemas

    static func position(_ p: ArticlePosition) -> S.DualArticlePosition {
        S.DualArticlePosition(chapter: p.chapter, word: p.word, updatedAt: p.updatedAt)
    }

    static func summary(_ stored: ArticleStore.Stored, position: ArticlePosition?, speech: ArticleSpeech?) -> S.DualArticleSummary {
        S.DualArticleSummary(
            id: stored.id.description, title: stored.article.title, author: stored.article.author, sourceUrl: stored.sourceURL,
            format: S.DualArticleSummary.FormatPayload(rawValue: stored.format) ?? .html, words: stored.article.wordCount,
            chapters: stored.article.chapters.count, addedAt: stored.addedAt, position: position.map(Self.position),
            speech: speech.map { S.DualArticleSummary.SpeechPayload(rawValue: $0.status.rawValue) ?? .none } ?? .none)
    }

    static func article(_ stored: ArticleStore.Stored, position: ArticlePosition?) -> S.DualArticle {
        S.DualArticle(
            id: stored.id.description, title: stored.article.title, author: stored.article.author, sourceUrl: stored.sourceURL,
            format: S.DualArticle.FormatPayload(rawValue: stored.format) ?? .html, words: stored.article.wordCount, addedAt: stored.addedAt,
            position: position.map(Self.position),
            chapters: stored.article.chapters.map { .init(title: $0.title, paragraphs: $0.paragraphs) })
    }

    static func speech(_ s: ArticleSpeech, id: ArticleID) -> S.DualArticleSpeech {
        S.DualArticleSpeech(
            status: S.DualArticleSpeech.StatusPayload(rawValue: s.status.rawValue) ?? .failed, done: s.done, total: s.total,
            audioUrl: s.status == .ready ? "/api/v1/dual/articles/\(id)/speech/audio" : nil, duration: s.duration, failure: s.failure,
            chapters: s.chapters.map { .init(title: $0.title, start: $0.start, end: $0.end) },
            cues: s.cues.map { .init(start: $0.start, end: $0.end, text: $0.text, chapter: $0.chapter, word: $0.word) })
    }
}
