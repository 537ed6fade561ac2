"""RapidFuzz's side of the Indel benchmark: cdist with fuzz.ratio on one core over the
same strings Juke reads. Writes the strings first (one per line, queries then choices), and
after timing all the scores as float64 for Juke to check its own against."""
import random, sys, time
import numpy as np
from rapidfuzz import fuzz, process

path, n = sys.argv[1], int(sys.argv[2])
random.seed(42)
words = ["love", "night", "blue", "song", "heart", "fire", "rain", "dance", "moon", "river", "the", "of", "my", "you", "beyoncé", "café"]
def make():
    s = " ".join(random.choice(words) for _ in range(random.randint(1, 8)))
    if random.random() < 0.5:
        s = "".join(c if random.random() > 0.1 else random.choice("abcxyz") for c in s)
    return s[:64]
queries = [make() for _ in range(n)]
choices = [make() for _ in range(n)]
with open(path, "w") as f:
    f.write("\n".join(queries + choices) + "\n")
best = float("inf")
for _ in range(3):
    start = time.perf_counter()
    matrix = process.cdist(queries, choices, scorer=fuzz.ratio, workers=1)
    best = min(best, time.perf_counter() - start)
pairs = n * n
print(f"rapidfuzz cdist: {pairs} pairs in {best:.3f} s ({pairs / best:,.0f} pairs/s), checksum {float(matrix.sum()):.6f}")
# Every score, in float64, for Juke to compare with its own (JukeBench indel reads it).
process.cdist(queries, choices, scorer=fuzz.ratio, workers=1, dtype=np.float64).tofile(path + ".scores")
