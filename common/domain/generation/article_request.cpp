#include "common/domain/generation/article_request.hpp"

#include "common/core/text/concat.hpp"
#include "common/domain/generation/markdown_html.hpp"
#include "common/domain/generation/payload_members.hpp"

#include <cctype>
#include <stdexcept>
#include <utility>

namespace squawk::generation {
namespace {

// The code point starting at `i` and its length in bytes; a malformed byte reads as itself.
std::pair<char32_t, size_t> next_code_point(std::string_view text, size_t i) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const size_t length = lead < 0x80    ? 1
                          : lead >= 0xF0 ? 4
                          : lead >= 0xE0 ? 3
                          : lead >= 0xC0 ? 2
                                         : 1;
    if (length == 1 || i + length > text.size()) return {lead, 1};
    char32_t cp = lead & (0x7F >> length);
    for (size_t k = 1; k < length; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    return {cp, length};
}

// Letters and digits of any script; punctuation blocks (Latin-1, general, CJK, full-width) are not.
bool is_word_code_point(char32_t cp) {
    if (cp < 0x80) return std::isalnum(static_cast<int>(cp)) != 0;
    return !(cp <= 0xBF || (cp >= 0x2000 && cp <= 0x206F) || (cp >= 0x3000 && cp <= 0x303F) ||
             (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF0F));
}

}  // namespace

nlohmann::json ArticleRequest::to_json() const {
    nlohmann::json out{{"tone", tone},
                       {"length", length},
                       {"language", language},
                       {"keywords", keywords},
                       {"outline", outline}};
    if (!topic.empty()) out["topic"] = topic;
    if (!prompt.empty()) out["prompt"] = prompt;
    if (!source_text.empty()) out["source_text"] = source_text;
    if (!source_url.empty()) out["source_url"] = source_url;
    if (!model.empty()) out["model"] = model;
    return out;
}

ArticleRequest ArticleRequest::from_json(const nlohmann::json& payload) {
    if (!payload.is_object()) throw std::invalid_argument("the payload must be an object");
    ArticleRequest r;
    r.topic = string_member(payload, "topic");
    r.prompt = string_member(payload, "prompt");
    if (r.topic.empty() && r.prompt.empty())
        throw std::invalid_argument("topic or prompt is required");
    r.tone = string_member(payload, "tone", r.tone);
    const auto length = parse_name<ArticleLength>(string_member(payload, "length", "medium"));
    if (!length) throw std::invalid_argument("length is not short, medium or long");
    r.length = *length;
    r.language = string_member(payload, "language", r.language);
    if (const auto k = payload.find("keywords"); k != payload.end() && k->is_array())
        for (const auto& word : *k)
            if (word.is_string()) r.keywords.push_back(word.get<std::string>());
    r.outline = payload.value("outline", true);
    r.source_text = string_member(payload, "source_text");
    r.source_url = string_member(payload, "source_url");
    if (!r.source_text.empty() && !r.source_url.empty())
        throw std::invalid_argument("source_text and source_url cannot both be given");
    r.model = string_member(payload, "model");
    return r;
}

WrittenArticle read_article(std::string markdown, const std::string& fallback_title) {
    WrittenArticle a;
    a.title = fallback_title;
    size_t start = 0;
    while (start < markdown.size()) {
        size_t end = markdown.find('\n', start);
        if (end == std::string::npos) end = markdown.size();
        const std::string_view line(markdown.data() + start, end - start);
        if (line.starts_with("# ")) {
            a.title = std::string(line.substr(2));
            while (!a.title.empty() && (a.title.back() == ' ' || a.title.back() == '\r'))
                a.title.pop_back();
            break;
        }
        start = end + 1;
    }
    bool in_word = false;
    for (size_t i = 0; i < markdown.size();) {
        const auto [code_point, length] = next_code_point(markdown, i);
        i += length;
        const bool letter = is_word_code_point(code_point);
        if (letter && !in_word) ++a.word_count;
        in_word = letter || (in_word && (code_point == '\'' || code_point == '-'));
    }
    a.html = markdown_to_html(markdown);
    a.markdown = std::move(markdown);
    return a;
}

int target_words(ArticleLength length) {
    switch (length) {
        case ArticleLength::short_form:
            return 400;
        case ArticleLength::medium:
            return 900;
        case ArticleLength::long_form:
            return 1600;
    }
    return 900;
}

std::vector<ChatMessage> article_messages(const ArticleRequest& r) {
    std::string system = text::concat(
        {"You are a careful writer for a content platform. Write in the language with code '",
         r.language, "', in a ", r.tone, " tone, about ", std::to_string(target_words(r.length)),
         " words. Answer in Markdown only: the first line is the title as '# Title'"});
    system += r.outline ? "; then the sections as '## Heading' with paragraphs, so the headings "
                          "read as the article's outline."
                        : "; then paragraphs without section headings.";
    system += " Do not invent statistics, quotes or sources.";

    std::string user = r.topic.empty() ? r.prompt
                                       : (r.prompt.empty() ? "Write an article about: " + r.topic
                                                           : r.prompt + "\n\nTopic: " + r.topic);
    if (!r.keywords.empty()) {
        user += "\n\nUse these keywords naturally:";
        for (const auto& k : r.keywords) user += " " + k + ",";
        user.pop_back();
        user += ".";
    }
    if (!r.source_text.empty())
        user += "\n\nGround the article in this source text and do not contradict it:\n<<<\n" +
                r.source_text + "\n>>>";
    return {{"system", std::move(system)}, {"user", std::move(user)}};
}

}  // namespace squawk::generation
