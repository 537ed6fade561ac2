"""mutagen's side of the chapter benchmark: the Nero (chpl) chapters of one MP4, read N times."""
import sys, time
import mutagen.mp4

path, rounds = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100
times = []
chapters = []
for _ in range(rounds):
    start = time.perf_counter()
    chapters = mutagen.mp4.MP4(path).chapters
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print("mutagen chapters: %d chapters (chpl only); median %.4f ms, p90 %.4f ms per file (%d rounds)"
      % (len(chapters or []), times[len(times) // 2], times[min(len(times) - 1, len(times) * 9 // 10)], rounds))
