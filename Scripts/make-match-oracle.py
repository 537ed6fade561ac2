#!/usr/bin/env python3
"""Writes rapidfuzz's scores for generated and real-world string pairs: the oracle that the
Swift scorers must reproduce.
    python3 Scripts/make-match-oracle.py
        the committed 2,500-pair JSON with every scorer (run again only to change the pairs)
    python3 Scripts/make-match-oracle.py --large 100000 <out.tsv>
        a large table made afresh at test time (Scripts/test.sh): "a<TAB>b<TAB>ratio<TAB>
        levenshtein<TAB>jaro_winkler" per line, for MatchingTests' large-oracle test
(needs: pip install rapidfuzz)"""
import json, os, random, sys
import rapidfuzz
from rapidfuzz import fuzz
from rapidfuzz.distance import JaroWinkler, Levenshtein

random.seed(20261122)
real = [
    ("Bruce Springsteen", "springsteen"), ("Beyoncé", "beyonce"), ("Love Story", "love"), ("Queen", "Queens of the Stone Age"),
    ("The Beatles", "Beatles"), ("AC/DC", "ACDC"), ("Guns N' Roses", "Guns and Roses"), ("I Need U", "I Need You"),
    ("(Love Is Like A) Heat Wave", "Heat Wave"), ("Bohemian Rhapsody - Remastered 2011", "Bohemian Rhapsody"),
    ("Ludwig van Beethoven", "Beethoven"), ("Für Elise", "Fur Elise"), ("Sigur Rós", "Sigur Ros"), ("Motörhead", "Motorhead"),
    ("Simon & Garfunkel", "Simon and Garfunkel"), ("Earth, Wind & Fire", "Earth Wind and Fire"), ("Mötley Crüe", "Motley Crue"),
    ("Don't Stop Me Now", "Dont Stop Me Now"), ("Smells Like Teen Spirit", "Smells Like Team Spirit"), ("Hey Jude", "Hey Judy"),
    ("Stairway to Heaven", "Stairway 2 Heaven"), ("Twenty One Pilots", "21 Pilots"), ("Ode to Joy", "Ode to joy!"), ("北京", "東京"),
]
alphabets = ["ab", "abc", "abcdefgh", "aeiou rstlnm", "abcdefghijklmnopqrstuvwxyz ", "éèêëeàâäa ", "αβγδε", "日本語音楽 "]

def rand_string(alphabet, lo, hi):
    return "".join(random.choice(alphabet) for _ in range(random.randint(lo, hi)))

def mutate(s):
    s = list(s)
    for _ in range(random.randint(0, 4)):
        op = random.random()
        if op < 0.3 and s:
            del s[random.randrange(len(s))]
        elif op < 0.6:
            s.insert(random.randint(0, len(s)), random.choice("abcxyz é"))
        elif s:
            s[random.randrange(len(s))] = random.choice("abcxyz é")
    return "".join(s)

def generated(count):
    out = []
    for _ in range(count):
        alphabet = random.choice(alphabets)
        kind = random.random()
        if kind < 0.45:
            a = rand_string(alphabet, 0, 40)
            out.append((a, mutate(a)))
        elif kind < 0.8:
            out.append((rand_string(alphabet, 0, 20), rand_string(alphabet, 0, 60)))
        else:
            a = rand_string(alphabet, 50, 150)  # beyond one 64-bit word
            out.append((a, mutate(a) + rand_string(alphabet, 0, 30)))
    return out

if len(sys.argv) == 4 and sys.argv[1] == "--large":
    count, path = int(sys.argv[2]), sys.argv[3]
    # New pairs every run; the seed is printed so that a failure can be reproduced.
    seed = int(os.environ.get("JUKE_ORACLE_SEED") or int.from_bytes(os.urandom(4), "little"))
    random.seed(seed)
    words = [w for pair in real for side in pair for w in side.split()]
    pairs = list(real)
    while len(pairs) < count // 2:  # real-world-like: titles and names from real words, typed with slips
        title = " ".join(random.choice(words) for _ in range(random.randint(1, 6)))
        pairs.append((title, mutate(title) if random.random() < 0.8 else " ".join(random.choice(words) for _ in range(random.randint(1, 6)))))
    pairs += generated(count - len(pairs))
    with open(path, "w") as f:
        for a, b in pairs:
            f.write(f"{a}\t{b}\t{fuzz.ratio(a, b)!r}\t{Levenshtein.distance(a, b)}\t{JaroWinkler.similarity(a, b)!r}\n")
    print(f"wrote {len(pairs)} pairs to {path} (JUKE_ORACLE_SEED={seed})")
    sys.exit(0)

pairs = list(real) + generated(2500)

rows = []
for a, b in pairs:
    rows.append({
        "a": a, "b": b,
        "ratio": fuzz.ratio(a, b),
        "partial_ratio": fuzz.partial_ratio(a, b),
        "token_sort_ratio": fuzz.token_sort_ratio(a, b),
        "token_set_ratio": fuzz.token_set_ratio(a, b),
        "jaro_winkler": JaroWinkler.similarity(a, b),
        "levenshtein": Levenshtein.distance(a, b),
    })
out = os.path.join(os.path.dirname(__file__), "..", "Tests", "MatchingTests", "Oracle", "rapidfuzz.json")
with open(out, "w") as f:
    json.dump({"rapidfuzz_version": rapidfuzz.__version__, "pairs": rows}, f, ensure_ascii=False, indent=0)
print("wrote", len(rows), "pairs")
