// What an article job is asked for (POST /articles/generate), its bounds, and the messages a text
// provider gets for it. The API validates against these bounds; the job builds the prompt here.
#pragma once

#include "common/core/names/wire_names.hpp"
#include "common/domain/generation/text_provider.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace squawk::generation {

enum class ArticleLength { short_form, medium, long_form };

inline std::span<const char* const> wire_names(ArticleLength) {
    static constexpr const char* names[] = {"short", "medium", "long"};
    return names;
}

inline constexpr size_t kMaxTopicChars = 300;
inline constexpr size_t kMaxPromptChars = 4000;
inline constexpr size_t kMaxSourceChars = 20000;
inline constexpr size_t kMaxKeywords = 20;
inline constexpr size_t kMaxKeywordChars = 60;
inline constexpr std::string_view kArticleTones[] = {"informative", "friendly", "professional",
                                                     "persuasive",  "humorous", "neutral"};

struct ArticleRequest {
    std::string topic;   // or
    std::string prompt;  // (at least one)
    std::string tone{"informative"};
    ArticleLength length = ArticleLength::medium;
    std::string language{"en"};
    std::vector<std::string> keywords;
    bool outline = true;
    std::string source_text;
    // Or (never both) a page the job fetches and grounds the article on (source_page.hpp).
    std::string source_url;
    std::string model;

    nlohmann::json to_json() const;
    // Throws std::invalid_argument naming the field when `payload` is not a request this build
    // wrote (a job row edited by hand, or written by a newer build).
    static ArticleRequest from_json(const nlohmann::json& payload);
};

// An article as the job stores it: the provider's Markdown, its title and the same text as HTML.
struct WrittenArticle {
    std::string title;
    std::string markdown;
    std::string html;
    int word_count = 0;
};

// The title is the first '# ' heading, else `fallback_title`; words are runs of letters and
// digits (any script), so Markdown markers are not counted.
WrittenArticle read_article(std::string markdown, const std::string& fallback_title);

// About how many words each length asks for.
int target_words(ArticleLength length);

// The chat a text provider answers with the article in Markdown, its title on the first line.
std::vector<ChatMessage> article_messages(const ArticleRequest& request);

}  // namespace squawk::generation
