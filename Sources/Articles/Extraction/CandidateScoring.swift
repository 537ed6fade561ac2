/// Readability.js's choice of the article's container: each paragraph scores for its
/// ancestors (five levels up, less the higher), scores are cut by link density, and the best
/// is moved up the tree while its ancestors hold more of the close runners-up or score more;
/// its siblings that score well or read as prose join it.
extension ArticleExtractor {
    /// Commas of Latin, Arabic, Chinese and other scripts, as Readability.js counts them
    /// (a switch on the scalar, not a set: this runs over every scored paragraph).
    static func commas(_ text: String) -> Int {
        var count = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x2C, 0x60C, 0xFE50, 0xFE10, 0xFE11, 0x2E41, 0x2E34, 0x2E32, 0xFF0C: count += 1
            default: break
            }
        }
        return count
    }

    /// Scores the ancestors of the elements to score (on the nodes themselves); returns them
    /// in the order they became candidates.
    static func score(_ elements: [HTMLNode], weighClasses: Bool) -> [HTMLNode] {
        var candidates: [HTMLNode] = []
        for element in elements {
            // Removed elements have no parent.
            guard element.parent != nil else { continue }
            let text = element.innerText
            let length = text.unicodeScalars.count
            guard length >= ReadabilityRules.minLength else { continue }
            let points = 1 + Double(commas(text) + 1) + min(Double(length / 100), 3)
            var ancestor = element.parent
            var level = 0
            while let node = ancestor, level < 5, let above = node.parent, above.name != "#document" {
                if node.score == nil {
                    node.score = ReadabilityRules.initialScore(node, weighClasses: weighClasses)
                    candidates.append(node)
                }
                let divider = level == 0 ? 1.0 : level == 1 ? 2.0 : Double(level * 3)
                node.score = (node.score ?? 0) + points / divider
                ancestor = above
                level += 1
            }
        }
        for candidate in candidates { candidate.score = (candidate.score ?? 0) * (1 - linkDensity(candidate)) }
        return candidates
    }

    /// The article's container, from the scored candidates; nil when nothing scored.
    static func topCandidate(_ candidates: [HTMLNode], body: HTMLNode) -> HTMLNode? {
        // The five best, best first (the first of equals ahead).
        var top: [HTMLNode] = []
        for candidate in candidates {
            let value = candidate.score ?? 0
            if let index = top.firstIndex(where: { value > ($0.score ?? 0) }) {
                top.insert(candidate, at: index)
                if top.count > 5 { top.removeLast() }
            } else if top.count < 5 {
                top.append(candidate)
            }
        }
        guard var best = top.first, best !== body else { return nil }
        let bestScore = best.score ?? 0
        // Three or more close runners-up under one ancestor: the article is that ancestor.
        let close = top.dropFirst().filter { bestScore > 0 && ($0.score ?? 0) / bestScore >= 0.75 }.map { Set(ancestors(of: $0).map(ObjectIdentifier.init)) }
        if close.count >= 3 {
            var parent = best.parent
            while let node = parent, node !== body, node.name != "body" {
                if close.filter({ $0.contains(ObjectIdentifier(node)) }).count >= 3 {
                    best = node
                    break
                }
                parent = node.parent
            }
        }
        if best.score == nil { best.score = ReadabilityRules.initialScore(best) }
        // A parent scoring more than the best (soon, before scores fall to a third) holds more of it.
        var parent = best.parent
        var lastScore = best.score ?? 0
        let threshold = lastScore / 3
        while let node = parent, node !== body, node.name != "body" {
            guard let value = node.score else {
                parent = node.parent
                continue
            }
            if value < threshold { break }
            if value > lastScore {
                best = node
                break
            }
            lastScore = value
            parent = node.parent
        }
        // An only child: its parent, so that siblings are looked for where the content is.
        while let node = best.parent, node !== body, node.name != "body", node.children.filter({ !$0.isText }).count == 1 {
            best = node
        }
        if best.score == nil { best.score = ReadabilityRules.initialScore(best) }
        return best
    }

    static func ancestors(of node: HTMLNode) -> [HTMLNode] {
        var out: [HTMLNode] = []
        var current = node.parent
        while let found = current {
            out.append(found)
            current = found.parent
        }
        return out
    }

    /// The top candidate and those of its siblings that belong with it: scoring a fifth of it
    /// (more easily when they share its class), or paragraphs that read as prose.
    static func gather(_ top: HTMLNode) -> [HTMLNode] {
        guard let parent = top.parent else { return [top] }
        let topScore = top.score ?? 0
        let threshold = max(10, topScore * 0.2)
        let topClass = top.attributes["class"] ?? ""
        var out: [HTMLNode] = []
        for sibling in parent.children where !sibling.isText {
            if sibling === top {
                out.append(sibling)
                continue
            }
            let bonus = !topClass.isEmpty && sibling.attributes["class"] == topClass ? topScore * 0.2 : 0
            if let value = sibling.score, value + bonus >= threshold {
                out.append(sibling)
                continue
            }
            guard sibling.name == "p" || sibling.isParagraph else { continue }
            let text = sibling.innerText
            let length = text.unicodeScalars.count
            let density = linkDensity(sibling)
            if length > 80 && density < 0.25 {
                out.append(sibling)
            } else if length < 80 && length > 0 && density == 0 && (text.hasSuffix(".") || text.contains(". ")) {
                out.append(sibling)
            }
        }
        return out
    }

    /// The share of the text that is link text; links to the page's own anchors count 0.3.
    static func linkDensity(_ node: HTMLNode) -> Double {
        let total = node.textLength
        guard total > 0 else { return 0 }
        var links = 0.0
        var pending: [HTMLNode] = node.children
        while let child = pending.popLast() {
            guard !child.isText else { continue }
            if child.name == "a" {
                let coefficient = child.attributes["href"]?.hasPrefix("#") == true && (child.attributes["href"]?.count ?? 0) > 1 ? 0.3 : 1
                links += Double(child.textLength) * coefficient
            } else {
                pending.append(contentsOf: child.children)
            }
        }
        return links / Double(total)
    }

    /// Whether an ancestor within `depth` levels (any, when 0) is named `name`.
    static func hasAncestor(_ node: HTMLNode, _ name: String, depth: Int = 0, where test: (HTMLNode) -> Bool = { _ in true }) -> Bool {
        var current = node.parent
        var level = 0
        while let found = current {
            if depth > 0 && level == depth { return false }
            if found.name == name && test(found) { return true }
            current = found.parent
            level += 1
        }
        return false
    }
}
