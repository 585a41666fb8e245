// What the presentation tests share: bytes saved as a file beside the stack, and a deck's media.
#pragma once

#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

namespace squawk::testing {

// Writes `bytes` to `name` in the stack's directory; the file's path.
inline std::string saved(Stack& stack, const std::string& name, const std::string& bytes) {
    const auto path = stack.dir() + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// The media id of the deck's media with `role` ("main", "pdf"); a failure when there is none.
inline std::string media_of(const nlohmann::json& deck, const std::string& role) {
    for (const auto& m : deck["media"])
        if (m.value("role", "") == role) return m.value("media_id", "");
    FAIL("no media with role " << role);
    return "";
}

}  // namespace squawk::testing
