"""RapidFuzz's side of the catalog benchmark: extractOne with fuzz.ratio over 1,000,000
catalog strings, one query at a time, the way a resolver without an index would do it.

Writes the catalog and the queries first, with RapidFuzz's best score for each query, so
Juke's index can be checked against the exhaustive answer:
  line 1: "<entries> <queries>"; then one entry per line; then "<best score>\t<query>".
The strings are already in folded form (lower-case ASCII, single spaces), so both sides
compare them as they are: no processor here, CatalogKey.fold leaves them unchanged."""
import itertools, random, sys, time
from rapidfuzz import fuzz, process

path, entries, queries = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(7)

# A Zipf-distributed vocabulary: a few hundred common English words and 60,000 made-up
# ones, so that posting lists are as skewed as in a real catalog ("the", "love", "you").
common = ("the a of you my me love i in to it and night baby heart all we on your is be "
          "time no dance do for go down life world blue way like home day man girl one up "
          "little good let more way fire rain moon river song dream light away back long "
          "soul street city summer sweet stay young wild forever money run gold star").split()
onsets = "b c d f g h j k l m n p r s t v w z br ch cl cr dr fl gr kr pl sh st th tr".split()
vowels = "a e i o u ai ea ee oo ou ay ie".split()
codas = ["", "", "", "n", "r", "s", "t", "l", "m", "ck", "nd", "ng", "st"]
def made_up():
    return "".join(rng.choice(onsets) + rng.choice(vowels) + rng.choice(codas) for _ in range(rng.randint(1, 3)))
vocabulary = common + list({made_up() for _ in range(70_000)})[:60_000]
cumulative = list(itertools.accumulate(1 / (rank + 1) ** 0.9 for rank in range(len(vocabulary))))

def phrase(low, high):
    return " ".join(rng.choices(vocabulary, cum_weights=cumulative, k=rng.randint(low, high)))

catalog = [phrase(1, 5) if rng.random() < 0.7 else phrase(1, 3) for _ in range(entries)]

def typo(s):
    i = rng.randrange(len(s))
    op = rng.random()
    if op < 0.33: return s[:i] + s[i + 1:]
    if op < 0.66: return s[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz") + s[i + 1:]
    return s[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz") + s[i:]

def make_query():
    s = rng.choice(catalog)
    kind = rng.random()
    if kind < 0.15: return s                                   # typed exactly
    if kind < 0.55: return typo(s)                             # one typo
    if kind < 0.75: return typo(typo(s)) if len(s) > 4 else s # two typos
    if kind < 0.90:                                            # part of it, as typed so far
        words = s.split()
        return " ".join(words[:max(1, len(words) - 1)]) if len(words) > 1 else s[:max(2, len(s) - 2)]
    return phrase(1, 4)                                        # something else entirely

qs = [make_query().strip() or "x" for _ in range(queries)]
times, best = [], []
for q in qs:
    start = time.perf_counter()
    match = process.extractOne(q, catalog, scorer=fuzz.ratio)
    times.append(time.perf_counter() - start)
    best.append(match[1])
with open(path, "w") as f:
    f.write(f"{entries} {queries}\n")
    f.write("\n".join(catalog) + "\n")
    f.write("\n".join(f"{b!r}\t{q}" for b, q in zip(best, qs)) + "\n")
times.sort()
p = lambda x: times[min(len(times) - 1, int(len(times) * x))] * 1000
print(f"rapidfuzz extractOne over {entries:,} entries, {queries} queries: p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms")
