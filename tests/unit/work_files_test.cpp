#include "common/core/fs/work_files.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace squawk;

namespace {

std::filesystem::path ten_bytes(const fs::ScratchDirectory& folder) {
    const auto path = folder / "ten.bin";
    std::ofstream(path, std::ios::binary) << "0123456789";
    return path;
}

}  // namespace

TEST_CASE("a range read gives the bytes asked for, fewer at the end and none past it") {
    const fs::ScratchDirectory folder("squawk-range-");
    const auto path = ten_bytes(folder);
    CHECK(fs::read_file_range(path, 0, 4) == "0123");
    CHECK(fs::read_file_range(path, 6, 4) == "6789");
    CHECK(fs::read_file_range(path, 8, 8 * 1024 * 1024) == "89");
    CHECK(fs::read_file_range(path, 10, 4) == "");
    CHECK(fs::read_file_range(path, 25, 4) == "");
}

TEST_CASE("a range read of a missing file or before its start gives nothing") {
    const fs::ScratchDirectory folder("squawk-range-");
    CHECK_FALSE(fs::read_file_range(folder / "missing.bin", 0, 4));
    CHECK_FALSE(fs::read_file_range(ten_bytes(folder), -1, 4));
}
