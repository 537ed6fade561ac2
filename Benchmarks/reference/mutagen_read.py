"""mutagen's side of the tag-reading benchmark: tags and stream info of every file on stdin."""
import sys, time
import mutagen

paths = [line.rstrip("\n") for line in sys.stdin if line.strip()]
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
best = float("inf")
for _ in range(rounds):
    titles = failed = 0
    start = time.perf_counter()
    for p in paths:
        try:
            f = mutagen.File(p)
            if f is None:
                failed += 1
                continue
            _ = f.info.length
            tags = f.tags
            if tags is not None and any(k in tags for k in ("TIT2", "title", "TITLE", "\xa9nam")):
                titles += 1
        except Exception:
            failed += 1
    best = min(best, time.perf_counter() - start)
print("mutagen tags: %d files in %.3f s (%.0f files/s), %d with a title, %d failed" % (len(paths), best, len(paths) / best, titles, failed))
