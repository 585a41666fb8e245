#include "common/extensions/platforms/x/options.hpp"

#include "common/domain/social/alt_texts.hpp"
#include "common/domain/social/post_validation.hpp"
#include "common/extensions/platforms/x/weighted_length.hpp"

#include <algorithm>

namespace squawk::social::x {
namespace {

using nlohmann::json;

// A part's media are images only: the worker's media stage, which downloads and transcodes a
// video, runs for the main post, while the connector itself fetches a part's images.
void check_part(const json& part, const std::string& name, OptionProblems& problems) {
    if (!part.is_object()) {
        problems.push_back({name, "must be an object {text, media_urls?, alt_texts?}"});
        return;
    }
    size_t images = 0;
    for (const auto& [key, value] : part.items()) {
        const std::string field = name + "." + key;
        if (key == "text") {
            if (!value.is_string())
                problems.push_back({field, "must be a string"});
            else if (const auto length = weighted_length(value.get<std::string>());
                     length > kMaxWeightedLength)
                problems.push_back({field, "is " + std::to_string(length) +
                                               " characters as X counts them (a link as 23, CJK "
                                               "and emoji as 2), more than " +
                                               std::to_string(kMaxWeightedLength)});
        } else if (key == "media_urls") {
            if (!value.is_array() || value.size() > kMaxPartImages) {
                problems.push_back({field, "must be an array of at most 4 image URLs"});
                continue;
            }
            images = value.size();
            // https is required where the image is fetched (Message::check_url), which lets
            // development's allow_private_targets take plain http as it does for media_urls.
            for (size_t i = 0; i < value.size(); ++i)
                if (!value[i].is_string() || !is_web_url(value[i].get<std::string>(), false))
                    problems.push_back({field + "[" + std::to_string(i) + "]",
                                        "must be an https:// URL of an image"});
        } else if (key == "alt_texts") {
            check_alt_texts(value, field, kMaxPartImages, kMaxAltTextChars, problems);
        } else {
            problems.push_back({field,
                                "is not a field of a thread part (text, media_urls, "
                                "alt_texts)"});
        }
    }
    check_alt_texts_cover(part, images, name + ".", problems);
    const bool has_text = part.contains("text") && part["text"].is_string() && part["text"] != "";
    if (!has_text && images == 0)
        problems.push_back({name + ".text", "is required when the part has no media_urls"});
}

void check_thread(const json& thread, OptionProblems& problems) {
    if (!thread.is_array() || thread.empty() || thread.size() > kMaxThreadParts) {
        problems.push_back({"thread", "must be an array of 1 to " +
                                          std::to_string(kMaxThreadParts) + " follow-up parts"});
        return;
    }
    for (size_t i = 0; i < thread.size(); ++i)
        check_part(thread[i], "thread[" + std::to_string(i) + "]", problems);
}

}  // namespace

bool is_post_id(std::string_view text) {
    return !text.empty() && text.size() <= 19 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

OptionProblems check_options(const json& options, std::string_view post_type) {
    OptionProblems problems;
    for (const auto& [name, value] : options.items()) {
        if (name == "thread") {
            if (post_type == "thread")
                check_thread(value, problems);
            else
                problems.push_back({name, "is taken only with post_type thread"});
        } else if (name == "reply_to") {
            if (!value.is_string() || !is_post_id(value.get<std::string>()))
                problems.push_back({name, "must be the id of an X post (a string of digits)"});
        } else if (name == "alt_texts") {
            check_alt_texts(value, name, kMaxPartImages, kMaxAltTextChars, problems);
        } else {
            problems.push_back({name, "is not an option of X posts (thread, reply_to, alt_texts)"});
        }
    }
    if (post_type == "thread" && !options.contains("thread"))
        problems.push_back({"thread", "is required with post_type thread: 1 to " +
                                          std::to_string(kMaxThreadParts) + " follow-up parts"});
    return problems;
}

json thread_parts(const json& options, std::string_view post_type) {
    if (post_type != "thread" || !options.is_object() || !options.contains("thread") ||
        !options["thread"].is_array())
        return json::array();
    return options["thread"];
}

std::string reply_to_of(const json& options) {
    if (!options.is_object() || !options.contains("reply_to") || !options["reply_to"].is_string())
        return "";
    return options["reply_to"].get<std::string>();
}

}  // namespace squawk::social::x
