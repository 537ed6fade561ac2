/// Juke's demo show: three short public-domain readings, each an episode in chapters of a few
/// sentences (the transcript's cues are the sentences).
enum DemoPodcastText {
    static let title = "Juke Readings (Juke's spoken demo show)"
    static let author = "Juke"
    static let summary = "Short public-domain readings, spoken by espeak-ng on this server, so podcasts work with no network."

    struct Episode {
        let title: String
        let summary: String
        /// Chapters: a title and its sentences.
        let chapters: [(title: String, sentences: [String])]
    }

    static let episodes: [Episode] = [
        Episode(
            title: "Ozymandias, by Percy Bysshe Shelley",
            summary: "Shelley's sonnet of 1818 on a ruined statue in the desert.",
            chapters: [
                ("Introduction", ["Welcome to Juke Readings.", "Today, a sonnet by Percy Bysshe Shelley, published in 1818."]),
                (
                    "The poem",
                    [
                        "I met a traveller from an antique land, who said: two vast and trunkless legs of stone stand in the desert.",
                        "Near them, on the sand, half sunk, a shattered visage lies, whose frown, and wrinkled lip, and sneer of cold command, tell that its sculptor well those passions read.",
                        "And on the pedestal these words appear: my name is Ozymandias, king of kings; look on my works, ye mighty, and despair!",
                        "Nothing beside remains.",
                        "Round the decay of that colossal wreck, boundless and bare, the lone and level sands stretch far away.",
                    ]
                ),
                ("Closing", ["That was Ozymandias.", "Thank you for listening to Juke Readings."]),
            ]),
        Episode(
            title: "The North Wind and the Sun, by Aesop",
            summary: "One of Aesop's fables, in George Fyler Townsend's translation of 1867.",
            chapters: [
                ("Introduction", ["Welcome back to Juke Readings.", "Here is a fable of Aesop."]),
                (
                    "The fable",
                    [
                        "The North Wind and the Sun disputed as to which was the most powerful, and agreed that he should be declared the victor who could first strip a wayfaring man of his clothes.",
                        "The North Wind first tried his power and blew with all his might, but the keener his blasts, the closer the traveller wrapped his cloak around him.",
                        "At last, resigning all hope of victory, the Wind called upon the Sun to see what he could do.",
                        "The Sun suddenly shone out with all his warmth.",
                        "The traveller no sooner felt his genial rays than he took off one garment after another, and at last, fairly overcome with heat, undressed and bathed in a stream that lay in his path.",
                    ]
                ),
                ("The moral", ["Persuasion is better than force."]),
            ]),
        Episode(
            title: "The Gettysburg Address, by Abraham Lincoln",
            summary: "The address of November 19, 1863.",
            chapters: [
                ("Introduction", ["This is Juke Readings.", "Today, the address Abraham Lincoln gave at Gettysburg in 1863."]),
                (
                    "The address",
                    [
                        "Four score and seven years ago our fathers brought forth on this continent, a new nation, conceived in Liberty, and dedicated to the proposition that all men are created equal.",
                        "Now we are engaged in a great civil war, testing whether that nation, or any nation so conceived and so dedicated, can long endure.",
                        "We are met on a great battle-field of that war.",
                        "It is for us the living, rather, to be dedicated here to the unfinished work which they who fought here have thus far so nobly advanced.",
                        "That government of the people, by the people, for the people, shall not perish from the earth.",
                    ]
                ),
                ("Closing", ["Thank you for listening."]),
            ]),
    ]
}
