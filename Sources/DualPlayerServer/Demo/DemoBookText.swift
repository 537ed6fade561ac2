/// The spoken demo's text: four of Aesop's fables in George Fyler Townsend's translation
/// (1867, public domain), one chapter each.
enum DemoBookText {
    static let title = "Aesop's Fables (Juke's spoken demo)"
    static let author = "Aesop, translated by George Fyler Townsend"

    static let chapters: [(title: String, text: String)] = [
        (
            "The Fox and the Grapes",
            """
            A famished fox saw some clusters of ripe black grapes hanging from a trellised vine. \
            She resorted to all her tricks to get at them, but wearied herself in vain, for she could not reach them. \
            At last she turned away, hiding her disappointment and saying: The grapes are sour, and not ripe as I thought.
            """
        ),
        (
            "The Hare and the Tortoise",
            """
            A hare one day ridiculed the short feet and slow pace of the tortoise, who replied, laughing: \
            Though you be swift as the wind, I will beat you in a race. \
            The hare, believing her assertion to be simply impossible, assented to the proposal. \
            On the day appointed for the race the two started together. The tortoise never for a moment stopped, \
            but went on with a slow but steady pace straight to the end of the course. \
            The hare, lying down by the wayside, fell fast asleep. At last waking up, and moving as fast as he could, \
            he saw the tortoise had reached the goal, and was comfortably dozing after her fatigue. \
            Slow but steady wins the race.
            """
        ),
        (
            "The Crow and the Pitcher",
            """
            A crow perishing with thirst saw a pitcher, and hoping to find water, flew to it with delight. \
            When he reached it, he discovered to his grief that it contained so little water that he could not possibly get at it. \
            He tried everything he could think of to reach the water, but all his efforts were in vain. \
            At last he collected as many stones as he could carry and dropped them one by one with his beak into the pitcher, \
            until he brought the water within his reach and thus saved his life. Necessity is the mother of invention.
            """
        ),
        (
            "The Lion and the Mouse",
            """
            A lion was awakened from sleep by a mouse running over his face. Rising up angrily, he caught him and was about to kill him, \
            when the mouse piteously entreated, saying: If you would only spare my life, I would be sure to repay your kindness. \
            The lion laughed and let him go. It happened shortly after this that the lion was caught by some hunters, \
            who bound him by strong ropes to the ground. The mouse, recognizing his roar, came and gnawed the rope with his teeth, \
            and set him free, exclaiming: You ridiculed the idea of my ever being able to help you, \
            expecting to receive from me any repayment of your favor; now you know that it is possible for even a mouse to confer benefits on a lion.
            """
        ),
    ]
}
