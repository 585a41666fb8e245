#include "common/extensions/platforms/pinterest/options.hpp"

#include "common/domain/social/post_validation.hpp"

#include <algorithm>

namespace squawk::social::pinterest {
namespace {

using nlohmann::json;

// PinCreate's bounds in Pinterest's API reference.
constexpr size_t kMaxTitleChars = 100;
constexpr size_t kMaxAltTextChars = 500;
constexpr size_t kMaxLinkChars = 2048;
// Pinterest's ids are 64-bit numbers.
constexpr size_t kMaxIdDigits = 20;

std::string id_problem(const json& value) {
    if (!value.is_string()) return "must be a string of digits";
    return is_pinterest_id(value.get<std::string>()) ? "" : "must be a Pinterest id (digits only)";
}

std::string text_problem(const json& value, size_t max_chars) {
    if (!value.is_string()) return "must be a string";
    if (utf8_length(value.get<std::string>()) > max_chars)
        return "must be at most " + std::to_string(max_chars) + " characters";
    return "";
}

std::string link_problem(const json& value) {
    if (!value.is_string()) return "must be a string";
    const auto link = value.get<std::string>();
    if (!link.starts_with("https://") && !link.starts_with("http://"))
        return "must be an http(s) address";
    if (link.size() > kMaxLinkChars)
        return "must be at most " + std::to_string(kMaxLinkChars) + " characters";
    return "";
}

}  // namespace

bool is_pinterest_id(std::string_view text) {
    return !text.empty() && text.size() <= kMaxIdDigits &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

OptionProblems check_options(const json& options, std::string_view) {
    OptionProblems problems;
    if (!options.contains("board_id"))
        problems.push_back({"board_id", "is required: the id of the board the pin goes to"});
    for (const auto& [name, value] : options.items()) {
        std::string problem;
        if (name == "board_id" || name == "board_section_id")
            problem = id_problem(value);
        else if (name == "title")
            problem = text_problem(value, kMaxTitleChars);
        else if (name == "alt_text")
            problem = text_problem(value, kMaxAltTextChars);
        else if (name == "link")
            problem = link_problem(value);
        else
            problem = "is not an option of pinterest";
        if (!problem.empty()) problems.push_back({name, problem});
    }
    return problems;
}

}  // namespace squawk::social::pinterest
