import Foundation
import JukeCore
import Storage

/// The caller's stars and ratings on every artist, album and song an answer holds
/// (`starred`, `userRating`), written in one place for every method: the router hands each
/// answer here, which reads what the caller keeps on the ids in it with one query.
struct SubsonicAnnotations: Sendable {
    let store: SubsonicAnnotationStore

    func annotate(_ content: inout SubsonicElement.Child, user: UserID) async throws {
        var ids: [String] = []
        Self.collect(content.content, into: &ids)
        guard !ids.isEmpty else { return }
        let found = try await store.annotations(user: user, items: Array(Set(ids)))
        guard !found.isEmpty else { return }
        content = .init(name: content.name, content: Self.apply(content.content, found))
    }

    static func isItem(_ id: String) -> Bool { id.hasPrefix("ar-") || id.hasPrefix("al-") || id.hasPrefix("tr-") }

    static func collect(_ content: SubsonicContent, into ids: inout [String]) {
        switch content {
        case .one(let element): collect(element, into: &ids)
        case .many(let elements): for element in elements { collect(element, into: &ids) }
        case .values: break
        }
    }

    static func collect(_ element: SubsonicElement, into ids: inout [String]) {
        if case .string(let id)? = element.attribute("id"), isItem(id) { ids.append(id) }
        for child in element.children { collect(child.content, into: &ids) }
    }

    static func apply(_ content: SubsonicContent, _ found: [String: SubsonicAnnotationStore.Annotation]) -> SubsonicContent {
        switch content {
        case .one(let element): .one(apply(element, found))
        case .many(let elements): .many(elements.map { apply($0, found) })
        case .values: content
        }
    }

    static func apply(_ element: SubsonicElement, _ found: [String: SubsonicAnnotationStore.Annotation]) -> SubsonicElement {
        var element = element
        if case .string(let id)? = element.attribute("id"), let annotation = found[id] {
            if element.attribute("starred") == nil { element.add("starred", SubsonicItems.date(annotation.starredAt)) }
            if element.attribute("userRating") == nil { element.add("userRating", annotation.rating) }
        }
        element.children = element.children.map { .init(name: $0.name, content: apply($0.content, found)) }
        return element
    }
}
