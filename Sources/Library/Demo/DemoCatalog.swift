/// The demo library: public-domain tunes, transcribed by ear into Juke's note format.
/// Artists are the composers (or "Traditional"), so trivia about them is true.
public enum DemoCatalog {
    static let baroque = "Baroque Gems"
    static let classical = "Classical Era Favourites"
    static let romantic = "Romantic Era Themes"
    static let americana = "American Parlour & Ragtime"
    static let folk = "Folk Songs of the British Isles & America"
    static let world = "Songs Around the World"
    static let children = "Nursery & Children's Songs"
    static let holiday = "Holiday Classics"

    public static let pieces: [DemoPiece] = [
        // Baroque
        DemoPiece(
            title: "Canon in D", composer: "Johann Pachelbel", year: 1680, genre: "Baroque", album: baroque,
            fact: "Written for three violins and basso continuo over a repeating eight-note bass line.",
            tempo: 60, instrument: .strings,
            notes:
                "F#5:2 E5:2 D5:2 C#5:2 B4:2 A4:2 B4:2 C#5:2 D5 C#5 B4 A4 G4 F#4 G4 E4 D4:0.5 F#4:0.5 A4:0.5 G4:0.5 F#4:0.5 D4:0.5 F#4:0.5 E4:0.5 D4:0.5 B3:0.5 D4:0.5 A4:0.5 G4:0.5 B4:0.5 A4:0.5 G4:0.5"
        ),
        DemoPiece(
            title: "Minuet in G Major", composer: "Christian Petzold", year: 1725, genre: "Baroque", album: baroque,
            fact: "Long credited to J. S. Bach, it appears in the 1725 Notebook for Anna Magdalena Bach.",
            tempo: 132, instrument: .piano,
            notes:
                "D5 G4:0.5 A4:0.5 B4:0.5 C5:0.5 D5 G4 G4 E5 C5:0.5 D5:0.5 E5:0.5 F#5:0.5 G5 G4 G4 C5 D5:0.5 C5:0.5 B4:0.5 A4:0.5 B4 C5:0.5 B4:0.5 A4:0.5 G4:0.5 F#4 G4:0.5 A4:0.5 B4:0.5 G4:0.5 A4:3"
        ),
        DemoPiece(
            title: "Jesu, Joy of Man's Desiring", composer: "Johann Sebastian Bach", year: 1723, genre: "Baroque", album: baroque,
            fact: "The chorale closes both halves of Bach's cantata Herz und Mund und Tat und Leben, BWV 147.",
            tempo: 84, instrument: .organ,
            notes:
                "G4:0.333 A4:0.333 B4:0.334 D5:0.333 C5:0.333 C5:0.334 E5:0.333 D5:0.333 D5:0.334 G5:0.333 F#5:0.333 G5:0.334 D5:0.333 B4:0.333 G4:0.334 A4:0.333 B4:0.333 C5:0.334 D5:0.333 E5:0.333 D5:0.334 C5:0.333 B4:0.333 A4:0.334 B4:0.333 G4:0.333 F#4:0.334 G4:0.333 A4:0.333 D4:0.334 F#4:0.333 A4:0.333 C5:0.334 B4:0.333 A4:0.333 B4:0.334 G4:2"
        ),
        DemoPiece(
            title: "Spring (La primavera), Allegro", composer: "Antonio Vivaldi", year: 1725, genre: "Baroque", album: baroque,
            fact: "The first of The Four Seasons, published in 1725 with sonnets describing each season.",
            tempo: 100, instrument: .strings,
            notes: "E5 G#5 G#5 G#5 F#5:0.5 E5:0.5 B5:3 B5:0.5 A5:0.5 G#5 G#5 G#5 F#5:0.5 E5:0.5 B5:3 B5:0.5 A5:0.5 G#5 A5:0.5 B5:0.5 A5 G#5 F#5:2"),
        // Classical era
        DemoPiece(
            title: "Eine kleine Nachtmusik", composer: "Wolfgang Amadeus Mozart", year: 1787, genre: "Classical", album: classical,
            fact: "Serenade No. 13 for strings, K. 525; it was not published until about 1827, after Mozart's death.",
            tempo: 120, instrument: .strings,
            notes: "G4 R:0.5 D4:0.5 G4 R:0.5 D4:0.5 G4:0.5 D4:0.5 G4:0.5 B4:0.5 D5:2 C5 R:0.5 A4:0.5 C5 R:0.5 A4:0.5 C5:0.5 A4:0.5 F#4:0.5 A4:0.5 D4:2"),
        DemoPiece(
            title: "Rondo alla Turca", composer: "Wolfgang Amadeus Mozart", year: 1783, genre: "Classical", album: classical,
            fact: "The finale of the Piano Sonata No. 11 in A major, K. 331, imitating Turkish Janissary bands.",
            tempo: 120, instrument: .piano,
            notes:
                "B4:0.25 A4:0.25 G#4:0.25 A4:0.25 C5:1 D5:0.25 C5:0.25 B4:0.25 C5:0.25 E5:1 F5:0.25 E5:0.25 D#5:0.25 E5:0.25 B5:0.25 A5:0.25 G#5:0.25 A5:0.25 B5:0.25 A5:0.25 G#5:0.25 A5:0.25 C6:2"
        ),
        DemoPiece(
            title: "Symphony No. 40, Molto allegro", composer: "Wolfgang Amadeus Mozart", year: 1788, genre: "Classical", album: classical,
            fact: "One of only two symphonies Mozart wrote in a minor key, both in G minor.",
            tempo: 132, instrument: .strings,
            notes: "Eb5:0.5 D5:0.5 D5 Eb5:0.5 D5:0.5 D5 Eb5:0.5 D5:0.5 D5 Bb5:2 Bb5:0.5 A5:0.5 G5 G5:0.5 F5:0.5 Eb5 Eb5:0.5 D5:0.5 C5 C5:2"),
        DemoPiece(
            title: "Für Elise", composer: "Ludwig van Beethoven", year: 1810, genre: "Classical", album: classical,
            fact: "Bagatelle No. 25 in A minor; it was found and published in 1867, forty years after Beethoven died.",
            tempo: 140, instrument: .piano,
            notes:
                "E5:0.5 D#5:0.5 E5:0.5 D#5:0.5 E5:0.5 B4:0.5 D5:0.5 C5:0.5 A4:1.5 C4:0.5 E4:0.5 A4:0.5 B4:1.5 E4:0.5 G#4:0.5 B4:0.5 C5:1.5 E4:0.5 E5:0.5 D#5:0.5 E5:0.5 D#5:0.5 E5:0.5 B4:0.5 D5:0.5 C5:0.5 A4:1.5 C4:0.5 E4:0.5 A4:0.5 B4:1.5 E4:0.5 C5:0.5 B4:0.5 A4:2"
        ),
        DemoPiece(
            title: "Symphony No. 5, Allegro con brio", composer: "Ludwig van Beethoven", year: 1808, genre: "Classical", album: classical,
            fact: "Its four-note opening motif is among the best-known phrases in Western music.",
            tempo: 108, instrument: .strings,
            notes:
                "R:0.5 G4:0.5 G4:0.5 G4:0.5 Eb4:2 R:0.5 F4:0.5 F4:0.5 F4:0.5 D4:3 R:0.5 G4:0.5 G4:0.5 G4:0.5 Eb4:0.5 Ab4:0.5 Ab4:0.5 Ab4:0.5 G4:0.5 Eb5:0.5 Eb5:0.5 Eb5:0.5 C5:2"
        ),
        DemoPiece(
            title: "Ode to Joy", composer: "Ludwig van Beethoven", year: 1824, genre: "Classical", album: classical,
            fact: "From the finale of the Ninth Symphony, setting Schiller's poem; today it is the anthem of Europe.",
            tempo: 120, instrument: .brass,
            notes: "E4 E4 F4 G4 G4 F4 E4 D4 C4 C4 D4 E4 E4:1.5 D4:0.5 D4:2 E4 E4 F4 G4 G4 F4 E4 D4 C4 C4 D4 E4 D4:1.5 C4:0.5 C4:2"),
        // Romantic era
        DemoPiece(
            title: "William Tell Overture, Finale", composer: "Gioachino Rossini", year: 1829, genre: "Romantic", album: romantic,
            fact: "The overture to Rossini's last opera; its galop became the theme of The Lone Ranger.",
            tempo: 150, instrument: .brass,
            notes:
                "E4:0.25 E4:0.25 E4:0.5 E4:0.25 E4:0.25 E4:0.5 E4:0.25 E4:0.25 A4:0.5 B4:0.5 C#5:0.5 E4:0.25 E4:0.25 E4:0.5 E4:0.25 E4:0.25 A4:0.5 C#5:0.25 C#5:0.25 B4:0.5 G#4:0.5 E4:0.5 E4:0.25 E4:0.25 E4:0.5 E4:0.25 E4:0.25 E4:0.5 E4:0.25 E4:0.25 A4:0.5 B4:0.5 C#5:0.5 A4:0.5 C#5:0.5 E5:1 D5:0.5 C#5:0.5 B4:0.5 A4:1"
        ),
        DemoPiece(
            title: "Bridal Chorus", composer: "Richard Wagner", year: 1850, genre: "Romantic", album: romantic,
            fact: "Sung in Act 3 of the opera Lohengrin; known in English as Here Comes the Bride.",
            tempo: 72, instrument: .organ,
            notes: "G4 C5:0.75 C5:0.25 C5:2 G4 D5:0.75 B4:0.25 C5:2 G4 C5:0.75 F5:0.25 F5:1.5 E5:0.5 D5:0.75 C5:0.25 B4:0.75 C5:0.25 D5:2"),
        DemoPiece(
            title: "Infernal Galop (Can-Can)", composer: "Jacques Offenbach", year: 1858, genre: "Romantic", album: romantic,
            fact: "From the operetta Orpheus in the Underworld; it became the music of the can-can.",
            tempo: 144, instrument: .brass,
            notes:
                "C5 D5:0.5 F5:0.5 E5:0.5 D5:0.5 G5 G5 G5:0.5 A5:0.5 E5:0.5 F5:0.5 D5 D5 D5:0.5 F5:0.5 E5:0.5 D5:0.5 C5:0.5 C6:0.5 B5:0.5 A5:0.5 G5:0.5 F5:0.5 E5:0.5 D5:0.5 C5:2"
        ),
        DemoPiece(
            title: "The Blue Danube", composer: "Johann Strauss II", year: 1866, genre: "Romantic", album: romantic,
            fact: "An der schönen blauen Donau, Op. 314, first performed in Vienna in 1867.",
            tempo: 160, instrument: .strings,
            notes:
                "D4 D4 F#4 A4 A4:2 A5 A5:2 F#5 F#5:2 D4 D4 F#4 A4 A4:2 A5 A5:2 G5 G5:2 C#4 C#4 E4 B4 B4:2 B5 B5:2 G5 G5:2 C#4 C#4 E4 B4 B4:2 B5 B5:2 F#5 F#5:2"),
        DemoPiece(
            title: "Wiegenlied (Lullaby)", composer: "Johannes Brahms", year: 1868, genre: "Romantic", album: romantic,
            fact: "Op. 49 No. 4, written for a friend's newborn son; known as Brahms' Lullaby.",
            tempo: 96, instrument: .musicBox,
            notes:
                "E4:0.5 E4:0.5 G4:2 E4:0.5 E4:0.5 G4:2 E4:0.5 G4:0.5 C5 B4:1.5 A4:0.5 A4 G4 D4:0.5 E4:0.5 F4 D4 D4:0.5 E4:0.5 F4:2 D4:0.5 F4:0.5 B4:0.5 A4:0.5 G4 B4 C5:2"
        ),
        DemoPiece(
            title: "Habanera", composer: "Georges Bizet", year: 1875, genre: "Romantic", album: romantic,
            fact: "Carmen's entrance aria, L'amour est un oiseau rebelle, adapted from a song by Sebastián Yradier.",
            tempo: 72, instrument: .strings,
            notes: "D5:1.5 C#5:0.5 C5 C5:0.5 B4:0.5 Bb4:0.75 A4:0.25 A4:0.5 Ab4:0.5 G4:1.5 F4:0.5 E4:0.5 F4:0.5 G4:0.5 F4:0.5 E4:2"),
        DemoPiece(
            title: "In the Hall of the Mountain King", composer: "Edvard Grieg", year: 1875, genre: "Romantic", album: romantic,
            fact: "Incidental music for Ibsen's play Peer Gynt; the theme speeds up until it runs wild.",
            tempo: 132, instrument: .brass,
            notes:
                "B3:0.5 C#4:0.5 D4:0.5 E4:0.5 F#4:0.5 D4:0.5 F#4 F4:0.5 C#4:0.5 F4 E4:0.5 C4:0.5 E4 B3:0.5 C#4:0.5 D4:0.5 E4:0.5 F#4:0.5 D4:0.5 F#4:0.5 B4:0.5 A4:0.5 F#4:0.5 D4:0.5 F#4:0.5 A4:2"
        ),
        DemoPiece(
            title: "Morning Mood", composer: "Edvard Grieg", year: 1875, genre: "Romantic", album: romantic,
            fact: "Also from Peer Gynt; it depicts a sunrise, although the scene is set in the Moroccan desert.",
            tempo: 120, instrument: .flute,
            notes: "G5 E5 D5 C5 D5 E5 G5 E5 D5 C5 D5:0.5 E5:0.5 D5:0.5 E5:0.5 G5 E5 G5 A5 E5 A5 G5 E5 D5 C5:3"),
        DemoPiece(
            title: "Swan Lake, Scene", composer: "Pyotr Ilyich Tchaikovsky", year: 1876, genre: "Romantic", album: romantic,
            fact: "The oboe theme of the swans from Tchaikovsky's first ballet, premiered in Moscow in 1877.",
            tempo: 80, instrument: .strings,
            notes: "F#4:3 B3:0.5 C#4:0.5 D4:0.5 E4:0.5 F#4:1.5 D4:0.5 F#4:1.5 D4:0.5 F#4:1.5 B3:0.5 D4:0.5 B3:0.5 G3:0.5 D4:0.5 B3:3"),
        DemoPiece(
            title: "Gymnopédie No. 1", composer: "Erik Satie", year: 1888, genre: "Romantic", album: romantic,
            fact: "The first of three slow piano pieces Satie published in 1888, marked lent et douloureux.",
            tempo: 72, instrument: .piano,
            notes: "F#5 A5 G5 F#5 C#5 B4 C#5 D5 A4 F#4:6 F#5 A5 G5 F#5 C#5 B4 C#5 D5 A4 C#5:6"),
        DemoPiece(
            title: "Symphony No. 9 'From the New World', Largo", composer: "Antonín Dvořák", year: 1893, genre: "Romantic", album: romantic,
            fact: "Written in New York; the cor anglais melody later became the song Goin' Home.",
            tempo: 60, instrument: .flute,
            notes: "E4:1.5 G4:0.5 G4:2 E4:1.5 D4:0.5 C4:2 D4 E4 G4 E4 D4:4 E4:1.5 G4:0.5 G4:2 E4:1.5 D4:0.5 C4:2 D4 E4 D4 C4 C4:4"),
        // American parlour songs and ragtime
        DemoPiece(
            title: "Oh! Susanna", composer: "Stephen Foster", year: 1848, genre: "Americana", album: americana,
            fact: "Foster sold it for $100; it became the unofficial song of the California Gold Rush.",
            tempo: 132, instrument: .accordion,
            notes:
                "C4:0.5 D4:0.5 E4 G4 G4:1.5 A4:0.5 G4 E4 C4:1.5 D4:0.5 E4 E4 D4 C4 D4:3 C4:0.5 D4:0.5 E4 G4 G4:1.5 A4:0.5 G4 E4 C4:1.5 D4:0.5 E4 E4 D4 D4 C4:3"),
        DemoPiece(
            title: "Camptown Races", composer: "Stephen Foster", year: 1850, genre: "Americana", album: americana,
            fact: "Published in 1850 as Gwine to Run All Night; known for its 'doo-dah' refrain.",
            tempo: 132, instrument: .accordion,
            notes:
                "G4:0.5 G4:0.5 E4:0.5 G4:0.5 A4:0.5 G4:0.5 E4 E4:0.5 D4:1.5 E4:0.5 D4:1.5 G4:0.5 G4:0.5 E4:0.5 G4:0.5 A4:0.5 G4:0.5 E4 D4:0.5 E4:0.5 D4:0.5 C4:2.5"
        ),
        DemoPiece(
            title: "Aura Lee", composer: "George R. Poulton", year: 1861, genre: "Americana", album: americana,
            fact: "A Civil War era ballad whose tune was reused in 1956 for Love Me Tender.",
            tempo: 92, instrument: .flute,
            notes: "G4 C5 B4 C5 D5 A4 D5:2 C5 B4 A4 B4 C5:4 G4 C5 B4 C5 D5 A4 D5:2 C5 B4 A4 B4 C5:4"),
        DemoPiece(
            title: "Good Morning to All", composer: "Mildred J. Hill", year: 1893, genre: "Americana", album: americana,
            fact: "A kindergarten greeting song by the Hill sisters whose tune became Happy Birthday to You.",
            tempo: 112, instrument: .piano,
            notes: "G4:0.75 G4:0.25 A4 G4 C5 B4:2 G4:0.75 G4:0.25 A4 G4 D5 C5:2 G4:0.75 G4:0.25 G5 E5 C5 B4 A4 F5:0.75 F5:0.25 E5 C5 D5 C5:2"),
        DemoPiece(
            title: "The Entertainer", composer: "Scott Joplin", year: 1902, genre: "Ragtime", album: americana,
            fact: "A classic piano rag that returned to fame in the 1973 film The Sting.",
            tempo: 80, instrument: .piano,
            notes:
                "D4:0.25 D#4:0.25 E4:0.25 C5:0.5 E4:0.25 C5:0.5 E4:0.25 C5:1.25 C5:0.25 D5:0.25 D#5:0.25 E5:0.25 C5:0.25 D5:0.25 E5:0.5 B4:0.25 D5:0.5 C5:1.5 D4:0.25 D#4:0.25 E4:0.25 C5:0.5 E4:0.25 C5:0.5 E4:0.25 C5:1.25 A4:0.25 G4:0.25 F#4:0.25 A4:0.25 C5:0.25 E5:0.5 D5:0.25 C5:0.25 A4:0.25 D5:1.5"
        ),
        DemoPiece(
            title: "Take Me Out to the Ball Game", composer: "Albert Von Tilzer", year: 1908, genre: "Popular", album: americana,
            fact: "Written by Von Tilzer and Jack Norworth, neither of whom had seen a baseball game at the time.",
            tempo: 160, instrument: .organ,
            notes: "C4:2 C5 A4 G4 E4 G4:3 D4:3 C4:2 C5 A4 G4 E4 G4:5 A4 G#4 A4 E4 F4 G4 A4:2 F4 D4:3 A4:2 A4 A4 B4 C5 D5 B4 A4 G4 E4 D4"),
        // Folk songs of the British Isles and America
        DemoPiece(
            title: "Greensleeves", composer: "Traditional", year: 1580, genre: "Folk", album: folk,
            fact: "An English ballad registered in 1580; the legend that Henry VIII wrote it is unfounded.",
            tempo: 120, instrument: .flute,
            notes:
                "A4 C5:2 D5 E5:1.5 F5:0.5 E5 D5:2 B4 G4:1.5 A4:0.5 B4 C5:2 A4 A4:1.5 G#4:0.5 A4 B4:2 G#4 E4:2 A4 C5:2 D5 E5:1.5 F5:0.5 E5 D5:2 B4 G4:1.5 A4:0.5 B4 C5:1.5 B4:0.5 A4 G#4:1.5 F#4:0.5 G#4 A4:3"
        ),
        DemoPiece(
            title: "Scarborough Fair", composer: "Traditional", year: 1670, genre: "Folk", album: folk,
            fact: "An English ballad descended from The Elfin Knight, with its refrain of parsley, sage, rosemary and thyme.",
            tempo: 120, instrument: .flute,
            notes: "D4:2 D4 A4:2 A4 E4:1.5 F4:0.5 E4 D4:3 A4 C5:2 D5 C5:2 A4 B4 G4 A4 A4:3 D5:2 D5 D5:2 C5 A4 A4 G4 F4 E4:2 D4 C4 D4:2 A4 G4 F4 E4 D4:3"),
        DemoPiece(
            title: "Amazing Grace", composer: "Traditional", year: 1779, genre: "Hymn", album: folk,
            fact: "John Newton's words of 1779, sung since 1835 to the American tune New Britain.",
            tempo: 96, instrument: .organ,
            notes:
                "D4 G4:2 B4:0.5 G4:0.5 B4:2 A4 G4:2 E4 D4:2 D4 G4:2 B4:0.5 G4:0.5 B4:2 A4 D5:5 B4 D5:1.5 B4:0.5 D5:0.5 B4:0.5 G4:2 D4 E4:1.5 G4:0.5 G4:0.5 E4:0.5 D4:2 D4 G4:2 B4:0.5 G4:0.5 B4:2 A4 G4:3"
        ),
        DemoPiece(
            title: "Auld Lang Syne", composer: "Traditional", year: 1788, genre: "Folk", album: folk,
            fact: "Robert Burns sent the poem to the Scots Musical Museum in 1788, saying he took it from an old man's singing.",
            tempo: 96, instrument: .accordion,
            notes:
                "C4 F4:1.5 E4:0.5 F4 A4 G4:1.5 F4:0.5 G4 A4 F4:1.5 F4:0.5 A4 C5 D5:3 D5 C5:1.5 A4:0.5 A4 F4 G4:1.5 F4:0.5 G4 A4:0.5 G4:0.5 F4:1.5 D4:0.5 D4 C4 F4:3"
        ),
        DemoPiece(
            title: "Shenandoah", composer: "Traditional", year: 1826, genre: "Folk", album: folk,
            fact: "An American river song of the early 1800s, later sung as a sea shanty.",
            tempo: 76, instrument: .strings,
            notes:
                "D4 G4:0.5 G4:0.5 G4:2 A4:0.5 B4:0.5 C5:0.5 E5:0.5 D5:3 G5 F#5:0.5 E5:0.5 D5:2 E5:0.5 D5:0.5 B4:0.5 D5:0.5 D5:3 D5 E5:0.5 E5:0.5 E5:2 B4:0.5 D5:0.5 B4:0.5 A4:0.5 G4:3"
        ),
        DemoPiece(
            title: "Drunken Sailor", composer: "Traditional", year: 1839, genre: "Folk", album: folk,
            fact: "A sea shanty first described in print in 1839, sung for tasks done at a brisk walk.",
            tempo: 144, instrument: .accordion,
            notes:
                "A4:0.5 A4:0.5 A4 A4:0.5 A4:0.5 A4 A4:0.5 D4 F4:0.5 A4 G4:0.5 G4:0.5 G4 G4:0.5 G4:0.5 G4 G4:0.5 C4 E4:0.5 G4 A4:0.5 A4:0.5 A4 A4:0.5 A4:0.5 A4 A4:0.5 B4:0.5 C5:0.5 D5:0.5 C5 A4 G4 E4 D4:2"
        ),
        DemoPiece(
            title: "When the Saints Go Marching In", composer: "Traditional", year: 1896, genre: "Spiritual", album: folk,
            fact: "An African American spiritual that became a New Orleans jazz standard.",
            tempo: 152, instrument: .brass,
            notes: "C4 E4 F4 G4:4 C4 E4 F4 G4:4 C4 E4 F4 G4:2 E4:2 C4:2 E4:2 D4:4 E4 E4 D4 C4:3 C4 E4 G4:2 G4 F4:3 E4 F4 G4:2 E4:2 C4:2 D4:2 C4:4"),
        DemoPiece(
            title: "My Bonnie Lies over the Ocean", composer: "Traditional", year: 1881, genre: "Folk", album: folk,
            fact: "A Scottish folk song popular with students in the 1880s; often linked to Bonnie Prince Charlie.",
            tempo: 144, instrument: .accordion,
            notes: "G4 E5 D5 C5 D5 C5 A4 G4 E4:4 G4 E5 D5 C5 C5 B4 C5 D5:5 G4 E5 D5 C5 D5 C5 A4 G4 E4:4 G4 A4 D5 C5 B4 A4 B4 C5:5"),
        DemoPiece(
            title: "Oh My Darling, Clementine", composer: "Percy Montrose", year: 1884, genre: "Folk", album: folk,
            fact: "An American western ballad, usually credited to Percy Montrose in 1884.",
            tempo: 120, instrument: .accordion,
            notes:
                "F4:0.75 F4:0.25 F4 C4 A4:0.75 A4:0.25 A4 F4 F4:0.75 A4:0.25 C5:1.5 C5:0.5 Bb4:0.5 A4:0.5 G4:2 G4:0.5 A4:0.5 Bb4 Bb4 A4:0.75 G4:0.25 A4 F4 F4:0.75 A4:0.25 G4:1.5 C4:0.5 E4:0.5 G4:0.5 F4:2"
        ),
        // Songs around the world
        DemoPiece(
            title: "Sakura Sakura", composer: "Traditional", year: 1888, genre: "World", album: world,
            fact: "A Japanese song about cherry blossoms, first published in an 1888 collection for koto.",
            tempo: 80, instrument: .musicBox,
            notes: "A4 A4 B4:2 A4 A4 B4:2 A4 B4 C5 B4 A4 B4:0.5 A4:0.5 F4:2 E4 C4 E4 F4 E4 E4:0.5 C4:0.5 B3:2"),
        DemoPiece(
            title: "Korobeiniki", composer: "Traditional", year: 1861, genre: "World", album: world,
            fact: "A Russian folk song set to Nikolay Nekrasov's 1861 poem about peddlers; famous from Tetris.",
            tempo: 144, instrument: .accordion,
            notes:
                "E5 B4:0.5 C5:0.5 D5 C5:0.5 B4:0.5 A4 A4:0.5 C5:0.5 E5 D5:0.5 C5:0.5 B4:1.5 C5:0.5 D5 E5 C5 A4 A4:2 R:0.5 D5 F5:0.5 A5 G5:0.5 F5:0.5 E5:1.5 C5:0.5 E5 D5:0.5 C5:0.5 B4 B4:0.5 C5:0.5 D5 E5 C5 A4 A4:2"
        ),
        DemoPiece(
            title: "La Cucaracha", composer: "Traditional", year: 1910, genre: "World", album: world,
            fact: "A Spanish-language corrido whose verses were rewritten during the Mexican Revolution.",
            tempo: 144, instrument: .brass,
            notes:
                "C4:0.5 C4:0.5 C4:0.5 F4:1.5 A4 C4:0.5 C4:0.5 C4:0.5 F4:1.5 A4:1.5 F4:0.5 F4:0.5 E4:0.5 E4:0.5 D4:0.5 D4:0.5 C4:2 C4:0.5 C4:0.5 C4:0.5 E4:1.5 G4 C4:0.5 C4:0.5 C4:0.5 E4:1.5 G4:1.5 C5:0.5 D5:0.5 C5:0.5 Bb4:0.5 A4:0.5 G4:0.5 F4:2"
        ),
        DemoPiece(
            title: "Frère Jacques", composer: "Traditional", year: 1780, genre: "World", album: world,
            fact: "A French round first printed around 1780, sung by voices entering two bars apart.",
            tempo: 120, instrument: .musicBox,
            notes: "C4 D4 E4 C4 C4 D4 E4 C4 E4 F4 G4:2 E4 F4 G4:2 G4:0.5 A4:0.5 G4:0.5 F4:0.5 E4 C4 G4:0.5 A4:0.5 G4:0.5 F4:0.5 E4 C4 C4 G3 C4:2 C4 G3 C4:2"),
        // Children's songs
        DemoPiece(
            title: "Twinkle, Twinkle, Little Star", composer: "Traditional", year: 1761, genre: "Children's", album: children,
            fact: "The tune is the French Ah! vous dirai-je, maman of 1761, on which Mozart wrote twelve variations.",
            tempo: 112, instrument: .musicBox,
            notes: "C4 C4 G4 G4 A4 A4 G4:2 F4 F4 E4 E4 D4 D4 C4:2 G4 G4 F4 F4 E4 E4 D4:2 G4 G4 F4 F4 E4 E4 D4:2 C4 C4 G4 G4 A4 A4 G4:2 F4 F4 E4 E4 D4 D4 C4:2"),
        DemoPiece(
            title: "Yankee Doodle", composer: "Traditional", year: 1755, genre: "Children's", album: children,
            fact: "Sung by British officers to mock colonial Americans, who then adopted it as their own.",
            tempo: 132, instrument: .flute,
            notes:
                "C4:0.5 C4:0.5 D4:0.5 E4:0.5 C4:0.5 E4:0.5 D4 C4:0.5 C4:0.5 D4:0.5 E4:0.5 C4 B3 C4:0.5 C4:0.5 D4:0.5 E4:0.5 F4:0.5 E4:0.5 D4:0.5 C4:0.5 B3:0.5 G3:0.5 A3:0.5 B3:0.5 C4 C4"
        ),
        DemoPiece(
            title: "Row, Row, Row Your Boat", composer: "Eliphalet Oram Lyte", year: 1852, genre: "Children's", album: children,
            fact: "An English-language nursery rhyme and round, its music first published by Lyte in 1881.",
            tempo: 120, instrument: .musicBox,
            notes:
                "C4:1.5 C4:1.5 C4 D4:0.5 E4:1.5 E4 D4:0.5 E4 F4:0.5 G4:3 C5:0.5 C5:0.5 C5:0.5 G4:0.5 G4:0.5 G4:0.5 E4:0.5 E4:0.5 E4:0.5 C4:0.5 C4:0.5 C4:0.5 G4 F4:0.5 E4 D4:0.5 C4:3"
        ),
        // Holiday classics
        DemoPiece(
            title: "Silent Night", composer: "Franz Xaver Gruber", year: 1818, genre: "Holiday", album: holiday,
            fact: "First sung on Christmas Eve 1818 in Oberndorf, Austria, with Joseph Mohr's words and a guitar.",
            tempo: 84, instrument: .strings,
            notes: "G4:1.5 A4:0.5 G4 E4:3 G4:1.5 A4:0.5 G4 E4:3 D5:2 D5 B4:3 C5:2 C5 G4:3 A4:2 A4 C5:1.5 B4:0.5 A4 G4:1.5 A4:0.5 G4 E4:3"),
        DemoPiece(
            title: "Joy to the World", composer: "Lowell Mason", year: 1839, genre: "Holiday", album: holiday,
            fact: "Isaac Watts' 1719 words, set by Lowell Mason in 1839 to a tune he credited to Handel.",
            tempo: 100, instrument: .brass,
            notes:
                "C5 B4:0.75 A4:0.25 G4:1.5 F4:0.5 E4 D4 C4:1.5 G4:0.5 A4:1.5 A4:0.5 B4:1.5 B4:0.5 C5:3 C5:0.5 C5:0.5 B4:0.5 A4:0.5 G4:0.5 G4:0.75 F4:0.25 E4:0.5 C5:0.5 C5:0.5 B4:0.5 A4:0.5 G4:0.5 G4:0.75 F4:0.25 E4:2"
        ),
        DemoPiece(
            title: "Jingle Bells", composer: "James Lord Pierpont", year: 1857, genre: "Holiday", album: holiday,
            fact: "Published in 1857 as One Horse Open Sleigh, and written for Thanksgiving, not Christmas.",
            tempo: 152, instrument: .piano,
            notes: "E4 E4 E4:2 E4 E4 E4:2 E4 G4 C4:1.5 D4:0.5 E4:4 F4 F4 F4:1.5 F4:0.5 F4 E4 E4 E4:0.5 E4:0.5 E4 D4 D4 E4 D4:2 G4:2"),
        DemoPiece(
            title: "Deck the Halls", composer: "Traditional", year: 1862, genre: "Holiday", album: holiday,
            fact: "A Welsh winter melody, Nos Galan, given English Christmas words by Thomas Oliphant in 1862.",
            tempo: 132, instrument: .organ,
            notes:
                "G4:1.5 F4:0.5 E4 D4 C4 D4 E4 C4 D4:0.5 E4:0.5 F4:0.5 D4:0.5 E4:1.5 D4:0.5 C4 B3 C4:2 G4:1.5 F4:0.5 E4 D4 C4 D4 E4 C4 D4:0.5 E4:0.5 F4:0.5 D4:0.5 E4:1.5 D4:0.5 C4 B3 C4:2"
        ),
    ]
}
