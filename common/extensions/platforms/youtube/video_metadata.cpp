#include "common/extensions/platforms/youtube/video_metadata.hpp"

#include "common/core/text/ascii.hpp"
#include "common/domain/social/post_validation.hpp"

#include <algorithm>

namespace squawk::social::youtube {
namespace {

using nlohmann::json;

constexpr std::string_view kPrivacies[] = {"public", "unlisted", "private"};
constexpr std::string_view kShortsTag = "#Shorts";

bool has_angle_brackets(std::string_view text) {
    return text.find_first_of("<>") != std::string_view::npos;
}

bool is_digits(std::string_view text) {
    return !text.empty() && text.size() <= 8 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The first `chars` characters of UTF-8 `text`, never splitting one.
std::string utf8_prefix(std::string_view text, size_t chars) {
    size_t at = 0;
    for (size_t count = 0; at < text.size(); ++at)
        if ((static_cast<unsigned char>(text[at]) & 0xC0) != 0x80 && count++ == chars) break;
    return std::string(text.substr(0, at));
}

// YouTube counts the tags as it stores them: joined by commas, a tag with a space quoted.
size_t tags_length(const json& tags) {
    size_t length = tags.empty() ? 0 : tags.size() - 1;
    for (const auto& tag : tags) {
        const auto text = tag.get<std::string>();
        length += utf8_length(text) + (text.find(' ') != std::string::npos ? 2 : 0);
    }
    return length;
}

std::optional<std::string> tags_problem(const json& tags) {
    if (!tags.is_array()) return "must be a list of strings";
    for (const auto& tag : tags)
        if (!tag.is_string() || text::trim_blanks(tag.get<std::string>()).empty() ||
            has_angle_brackets(tag.get<std::string>()))
            return "must be a list of non-empty strings without '<' or '>'";
    if (tags_length(tags) > kMaxTagsChars)
        return "take at most 500 characters in all (commas between tags and quotes around a tag "
               "with a space count)";
    return std::nullopt;
}

std::optional<std::string> title_problem(const std::string& title) {
    if (text::trim_blanks(title).empty()) return "must not be empty";
    if (utf8_length(title) > kMaxTitleChars) return "must be at most 100 characters";
    if (has_angle_brackets(title)) return "must not contain '<' or '>'";
    return std::nullopt;
}

bool mentions_shorts(std::string_view title) {
    for (size_t at = title.find('#'); at != std::string_view::npos; at = title.find('#', at + 1))
        if (text::equals_ignoring_case(title.substr(at, kShortsTag.size()), kShortsTag))
            return true;
    return false;
}

// YouTube makes a Short of a square or vertical video of at most three minutes; the file decides,
// so one whose size or length is unknown cannot be promised to be one.
std::optional<std::string> short_problem(const Video& video) {
    if (video.width <= 0 || video.height <= 0 || video.duration_seconds <= 0)
        return "YouTube Shorts are square or vertical videos of at most 3 minutes, and this "
               "video's size or duration is unknown";
    if (video.width > video.height)
        return "YouTube Shorts are square or vertical videos, and this one is " +
               std::to_string(video.width) + "x" + std::to_string(video.height);
    if (video.duration_seconds > kMaxShortSeconds)
        return "YouTube Shorts are at most 3 minutes long, and this video lasts " +
               std::to_string(static_cast<long long>(video.duration_seconds)) + " seconds";
    return std::nullopt;
}

}  // namespace

OptionProblems check_options(const json& options, std::string_view) {
    OptionProblems problems;
    for (const auto& [field, value] : options.items()) {
        if (field == "title") {
            const auto problem = value.is_string() ? title_problem(value.get<std::string>())
                                                   : std::optional<std::string>("must be a string");
            if (problem) problems.push_back({field, *problem});
        } else if (field == "privacy_status") {
            if (!value.is_string() || std::find(std::begin(kPrivacies), std::end(kPrivacies),
                                                value.get<std::string>()) == std::end(kPrivacies))
                problems.push_back({field, "must be public, unlisted or private"});
        } else if (field == "category_id") {
            if (!value.is_string() || !is_digits(value.get<std::string>()))
                problems.push_back({field, "must be a YouTube video category id (digits)"});
        } else if (field == "tags") {
            if (const auto problem = tags_problem(value)) problems.push_back({field, *problem});
        } else if (field == "made_for_kids") {
            if (!value.is_boolean()) problems.push_back({field, "must be true or false"});
        } else {
            problems.push_back({field, "is not an option of youtube"});
        }
    }
    return problems;
}

std::string title_of(const Message& message) {
    std::string title;
    if (message.options.contains("title") && message.options["title"].is_string()) {
        title = message.options["title"].get<std::string>();
    } else {
        std::string line = message.text.substr(0, message.text.find('\n'));
        std::erase_if(line, [](char c) { return c == '<' || c == '>' || c == '\r'; });
        title = utf8_prefix(text::trim_blanks(line), kMaxTitleChars);
    }
    if (message.post_type != "short" || mentions_shorts(title)) return title;
    const size_t room = kMaxTitleChars - kShortsTag.size() - 1;
    title = utf8_prefix(title, room);
    return title + (title.empty() ? "" : " ") + std::string(kShortsTag);
}

VideoResource video_resource(const Message& message) {
    VideoResource out;
    if (!message.video) {
        out.problem = "YouTube publishes videos only, and this post has none";
        return out;
    }
    if (message.post_type == "short") out.problem = short_problem(*message.video);
    const auto title = title_of(message);
    if (!out.problem && text::trim_blanks(title).empty())
        out.problem = "YouTube videos need a title: give platform_options.youtube.title or text";
    if (const auto problem = title_problem(title); !out.problem && problem)
        out.problem = "the video's title " + *problem;
    if (!out.problem && message.text.size() > kMaxDescriptionBytes)
        out.problem = "YouTube takes a description of at most 5000 bytes, and this text has " +
                      std::to_string(message.text.size());
    if (!out.problem && has_angle_brackets(message.text))
        out.problem = "YouTube refuses a description containing '<' or '>'";
    if (out.problem) return out;
    const auto& options = message.options;
    json snippet = {{"title", title}, {"description", message.text}};
    if (options.contains("tags")) snippet["tags"] = options["tags"];
    if (options.contains("category_id")) snippet["categoryId"] = options["category_id"];
    json status = {{"privacyStatus", options.value("privacy_status", std::string("public"))}};
    if (options.contains("made_for_kids"))
        status["selfDeclaredMadeForKids"] = options["made_for_kids"];
    out.resource = {{"snippet", std::move(snippet)}, {"status", std::move(status)}};
    return out;
}

}  // namespace squawk::social::youtube
