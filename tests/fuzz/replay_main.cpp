// Without libFuzzer (GCC builds and CTest), each fuzz target runs over its seed corpus and a fixed
// number of deterministic mutations of it, so the targets compile, run and catch regressions in
// every `make test`. `make fuzz` builds the same targets with clang's libFuzzer instead.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: " << argv[0] << " CORPUS_DIR\n";
        return 2;
    }
    std::vector<std::vector<uint8_t>> seeds;
    for (const auto& entry : std::filesystem::directory_iterator(argv[1])) {
        std::ifstream in(entry.path(), std::ios::binary);
        seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    if (seeds.empty()) {
        std::cerr << "no seeds in " << argv[1] << "\n";
        return 2;
    }
    std::mt19937 random(20261123);
    size_t runs = 0;
    for (const auto& seed : seeds) {
        LLVMFuzzerTestOneInput(seed.data(), seed.size());
        ++runs;
        for (int i = 0; i < 2000; ++i) {
            std::vector<uint8_t> input = seed;
            const int edits = 1 + static_cast<int>(random() % 8);
            for (int e = 0; e < edits; ++e) {
                const auto at = input.empty() ? 0 : random() % input.size();
                switch (random() % 3) {
                    case 0:
                        if (!input.empty()) input[at] = static_cast<uint8_t>(random());
                        break;
                    case 1:
                        input.insert(input.begin() + static_cast<long>(at),
                                     static_cast<uint8_t>(random()));
                        break;
                    default:
                        if (!input.empty()) input.erase(input.begin() + static_cast<long>(at));
                }
            }
            LLVMFuzzerTestOneInput(input.data(), input.size());
            ++runs;
        }
    }
    std::cout << runs << " inputs ran without a crash\n";
    return 0;
}
