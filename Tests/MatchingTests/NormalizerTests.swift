import Testing

@testable import Matching

@Suite(.timeLimit(.minutes(5))) struct NormalizerTests {
    @Test(arguments: [
        ("Beyoncé", "beyonce"), ("MOTÖRHEAD", "motorhead"), ("The Beatles", "beatles"), ("Simon & Garfunkel", "simon and garfunkel"),
        ("Simon + Garfunkel", "simon and garfunkel"), ("AC/DC", "acdc"), ("Guns N’ Roses", "guns n roses"), ("R.E.M.", "rem"),
        ("Los Lobos", "lobos"), ("Die Ärzte", "arzte"), ("Sigur Rós", "sigur ros"), ("Ｆｕｌｌｗｉｄｔｈ", "fullwidth"),
        ("Twenty One Pilots", "21 pilots"), ("The The", "the"), ("Straße", "strasse"),
        // Symbols for letters, and numbers as they are said.
        ("Ke$ha", "kesha"), ("P!nk", "pink"), ("A$AP Rocky", "asap rocky"), ("$uicideboy$", "suicideboys"), ("Panic! at the Disco", "panic at the disco"),
        ("Wham!", "wham"), ("$5 Bill", "5 bill"), ("Blink One Eighty Two", "blink 182"), ("Nineteen Seventy Five", "1975"),
        ("Fifty Fifty", "50 50"), ("One Two Three", "1 2 3"), ("Two Hundred Five", "205"),
    ])
    func foldsArtistNames(raw: String, key: String) {
        #expect(MusicTextNormalizer.artist(raw).key == key)
    }

    @Test func takesOutFeaturedArtists() {
        let t = MusicTextNormalizer.title("Crazy in Love (feat. Jay-Z)")
        #expect(t.key == "crazy in love")
        #expect(t.featured == ["jay z"])
        let a = MusicTextNormalizer.artist("Calvin Harris ft. Rihanna & Dua Lipa")
        #expect(a.key == "calvin harris")
        #expect(a.featured == ["rihanna", "dua lipa"])
        #expect(MusicTextNormalizer.artist("Johnny Cash with June Carter").featured == ["june carter"])
    }

    @Test func removesAndRemembersVersionTags() {
        let remaster = MusicTextNormalizer.title("Bohemian Rhapsody - Remastered 2011")
        #expect(remaster.key == "bohemian rhapsody")
        #expect(remaster.versions.map(\.kind) == [.remaster])
        #expect(remaster.isOriginal)
        let live = MusicTextNormalizer.title("Yellow - Live at Glastonbury")
        #expect(live.key == "yellow")
        #expect(live.versions.first?.kind == .live)
        #expect(!live.isOriginal)
        let stacked = MusicTextNormalizer.title("Hello [Radio Edit] (Acoustic)")
        #expect(stacked.key == "hello")
        #expect(stacked.versions.map(\.kind) == [.edit, .acoustic])
        #expect(MusicTextNormalizer.title("Creep (Karaoke Version)").versions.first?.kind == .karaoke)
    }

    @Test func keepsLeadingParentheticalsAndOrdinaryOnes() {
        #expect(MusicTextNormalizer.title("(Love Is Like A) Heat Wave").key == "love is like a heat wave")
        #expect(MusicTextNormalizer.title("(I Can't Get No) Satisfaction").key == "i cant get no satisfaction")
        #expect(MusicTextNormalizer.title("Hey Jude (Naked)").key == "hey jude naked")
    }

    @Test func keepsPartNumbersApart() {
        let two = MusicTextNormalizer.title("Another Brick in the Wall, Pt. 2")
        #expect(two.key == "another brick in the wall")
        #expect(two.part == 2)
        #expect(MusicTextNormalizer.title("Another Brick in the Wall (Part II)").part == 2)
        #expect(MusicTextNormalizer.title("Another Brick in the Wall, Part 1").part == 1)
    }

    @Test func neverCrashesOnOddInput() {
        for text in ["", " ", "()", "( )", "[", " - ", "-", "feat.", "ft. ", "((()))", "Pt.", "\u{0}\u{FFFF}", "🎵🎶", "a - b - c - d"] {
            _ = MusicTextNormalizer.title(text)
            _ = MusicTextNormalizer.artist(text)
        }
    }
}

/// The normalizer on seeded random text: it never traps, and its keys are always clean
/// (lower case, single spaces, no punctuation).
@Suite(.timeLimit(.minutes(5))) struct NormalizerFuzzTests {
    @Test func randomTextNeverTrapsAndKeysAreStable() {
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 29
        }
        let pieces = [
            "(", ")", "[", "]", " - ", " feat. ", " ft. ", " with ", "&", "+", "/", "'", "’", ".", ",", "Pt. 2", "Part IV",
            "Live", "Remix", "Remastered 2011", "The ", "é", "ß", "Ⅻ", "ﬁ", "🎵", "\u{301}", "\u{0}", "one", "Twenty", "A", "x", " ",
        ]
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<Int(next() % 12) { text += pieces[Int(next() % UInt64(pieces.count))] }
            let title = MusicTextNormalizer.title(text)
            let artist = MusicTextNormalizer.artist(text)
            for key in [title.key, artist.key] {
                #expect(!key.contains("  ") && !key.hasPrefix(" ") && !key.hasSuffix(" "), "\(text)")
                #expect(key == key.lowercased(), "\(text)")
                #expect(!key.contains { "()[]&+/'’.,-".contains($0) }, "\(text) -> \(key)")
            }
        }
    }
}
