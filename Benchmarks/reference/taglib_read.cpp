// TagLib's side of the tag-reading benchmark: read title, artist, album and the audio
// properties of every file named on stdin; best of N rounds, files per second.
#include <taglib/fileref.h>
#include <taglib/tag.h>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    int rounds = argc > 1 ? std::stoi(argv[1]) : 3;
    std::vector<std::string> paths;
    for (std::string line; std::getline(std::cin, line);) paths.push_back(line);
    double best = 1e30;
    int titles = 0, failed = 0;
    for (int r = 0; r < rounds; r++) {
        titles = failed = 0;
        auto start = std::chrono::steady_clock::now();
        for (const auto& p : paths) {
            TagLib::FileRef f(p.c_str(), true, TagLib::AudioProperties::Average);
            if (f.isNull() || !f.tag()) { failed++; continue; }
            if (!f.tag()->title().isEmpty()) titles++;
            if (f.audioProperties()) (void)f.audioProperties()->lengthInMilliseconds();
        }
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (s < best) best = s;
    }
    std::printf("taglib tags: %zu files in %.3f s (%.0f files/s), %d with a title, %d failed\n", paths.size(), best, paths.size() / best, titles, failed);
}
