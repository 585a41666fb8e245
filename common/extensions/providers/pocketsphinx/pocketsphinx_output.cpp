#include "common/extensions/providers/pocketsphinx/pocketsphinx_output.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

namespace squawk::providers::pocketsphinx {
namespace {

constexpr std::string_view kBlanks = " \t\r";

std::vector<std::string_view> fields_of(std::string_view line) {
    std::vector<std::string_view> fields;
    size_t at = line.find_first_not_of(kBlanks);
    while (at != std::string_view::npos) {
        const size_t end = std::min(line.find_first_of(kBlanks, at), line.size());
        fields.push_back(line.substr(at, end - at));
        at = line.find_first_not_of(kBlanks, end);
    }
    return fields;
}

std::optional<double> number(std::string_view text) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

// <s>, </s>, <sil>: sentence marks and silence; [NOISE], [SPEECH], [BREATH] and the older
// ++NOISE++ style: fillers the model recognises so that they are not taken for words.
bool is_filler(std::string_view token) {
    const auto enclosed = [token](std::string_view open, std::string_view close) {
        return token.size() >= open.size() + close.size() && token.starts_with(open) &&
               token.ends_with(close);
    };
    return enclosed("<", ">") || enclosed("[", "]") || enclosed("++", "++");
}

// "read(2)" is the dictionary's second pronunciation of "read".
std::string_view without_variant(std::string_view token) {
    if (!token.ends_with(')')) return token;
    const size_t open = token.rfind('(');
    if (open == std::string_view::npos || open + 2 >= token.size()) return token;
    const auto digits = token.substr(open + 1, token.size() - open - 2);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return token;
    return token.substr(0, open);
}

}  // namespace

std::vector<generation::TranscribedWord> parse_pocketsphinx_output(std::string_view output) {
    std::vector<generation::TranscribedWord> words;
    while (!output.empty()) {
        const size_t end = std::min(output.find('\n'), output.size());
        const auto fields = fields_of(output.substr(0, end));
        output.remove_prefix(std::min(end + 1, output.size()));

        if (fields.size() != 4) continue;
        const auto start = number(fields[1]);
        const auto stop = number(fields[2]);
        if (!start || !stop || !number(fields[3]) || *start < 0 || *stop < *start) continue;
        const auto word = without_variant(fields[0]);
        if (word.empty() || is_filler(word)) continue;
        words.push_back({std::string(word), *start, *stop});
    }
    // Utterances come out in order already; sorting keeps the promise whatever the input.
    std::stable_sort(words.begin(), words.end(), [](const auto& a, const auto& b) {
        return a.start_seconds < b.start_seconds;
    });
    return words;
}

}  // namespace squawk::providers::pocketsphinx
