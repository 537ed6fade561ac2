import ArgumentParser
import Articles
import ExternalTools
import Foundation

/// `juke article`: the readable article Juke finds in a saved web page (HTML) or a text
/// file, as it would read it aloud: title, author, chapters and their paragraphs.
struct ArticleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "article",
        abstract: "Prints the article Juke reads aloud from web pages (.html), ePub books (.epub), PDFs (.pdf) or text files (.txt, .md).",
        discussion: """
            With --json each file prints one line: {"title", "author", "words", "chapters": \
            [{"title", "paragraphs": [text]}]}.
            """
    )

    @Argument(help: "HTML, ePub, PDF or text files.") var files: [String]
    @Flag(help: "One JSON object per file and line.") var json = false
    @Flag(help: "Read PDFs with Juke's own reader only, even where poppler's pdftotext is installed.") var withoutPoppler = false

    func run() async throws {
        var failed = false
        // pdftotext reads PDFs' text where the system has it (Juke's reader keeps the outline).
        let poppler = withoutPoppler ? nil : PopplerText.locate()
        for path in files {
            do {
                guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("no such file") }
                let lower = path.lowercased()
                let article: Article
                if lower.hasSuffix(".txt") || lower.hasSuffix(".text") || lower.hasSuffix(".md") {
                    article = try TextArticle.read(Array(data), name: (path as NSString).lastPathComponent)
                } else if lower.hasSuffix(".epub") {
                    article = try EPubReader.read(Array(data))
                } else if lower.hasSuffix(".pdf") {
                    article = try await Self.readPDF(Array(data), poppler: poppler)
                } else {
                    article = try ArticleExtractor.extract(html: Array(data))
                }
                print(json ? try Self.json(article) : Self.text(article))
            } catch {
                failed = true
                FileHandle.standardError.write(Data("\(path): \(error)\n".utf8))
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// Juke's own reader checks the budgets first, then pdftotext (where installed) reads the
    /// text and Juke's own reader adds the outline, title and author, as the server does.
    static func readPDF(_ bytes: [UInt8], poppler: PopplerText?) async throws -> Article {
        guard let poppler else { return try PDFReader.read(bytes) }
        try PDFReader.checkBudgets(bytes)
        do {
            return try PDFReader.read(bytes, text: try await poppler.text(of: bytes))
        } catch PopplerText.Refusal.tooBig(let why) {
            throw ArticleError.tooBig(why)
        }
    }

    static func json(_ article: Article) throws -> String {
        let object: [String: Any] = [
            "title": article.title, "author": article.author ?? NSNull(), "words": article.wordCount,
            "chapters": article.chapters.map { ["title": $0.title, "paragraphs": $0.paragraphs] },
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }

    static func text(_ article: Article) -> String {
        var out = "\(article.title)\n"
        if let author = article.author { out += "by \(author)\n" }
        for chapter in article.chapters {
            out += "\n## \(chapter.title)\n"
            for paragraph in chapter.paragraphs { out += "\n\(paragraph)\n" }
        }
        return out
    }
}
