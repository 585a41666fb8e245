#include "common/extensions/platforms/instagram/post_rules.hpp"

#include "common/extensions/platforms/instagram/graph.hpp"

#include <algorithm>
#include <cctype>

namespace squawk::social::instagram {
namespace {

// Reels run 3 seconds to 15 minutes; a story's video at most 60 seconds and 100 MB (the factory's
// media rules bound every video by the reel's 300 MB and 15 minutes).
constexpr double kMinReelSeconds = 3;
constexpr double kMaxStorySeconds = 60;
constexpr long long kMaxStoryVideoBytes = 100LL * 1000 * 1000;

bool word_byte(char c) {
    const auto byte = static_cast<unsigned char>(c);
    return std::isalnum(byte) || c == '_' || byte >= 0x80;
}

size_t code_points(std::string_view text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

std::optional<std::string> caption_problem(const std::string& text) {
    if (const auto length = code_points(text); length > kMaxCaptionChars)
        return "Instagram captions have at most " + std::to_string(kMaxCaptionChars) +
               " characters (this one has " + std::to_string(length) + ")";
    return hashtag_problem(text);
}

std::optional<std::string> video_problem(const Video& video, const std::string& post_type) {
    const bool story = post_type == "story";
    if (story && video.bytes > kMaxStoryVideoBytes)
        return "Instagram story videos are at most 100 MB";
    if (video.duration_seconds <= 0) return std::nullopt;
    if (story && video.duration_seconds > kMaxStorySeconds)
        return "Instagram story videos last at most 60 seconds";
    if (!story && video.duration_seconds < kMinReelSeconds)
        return "Instagram reels last at least 3 seconds";
    return std::nullopt;
}

std::optional<std::string> media_problem(const Message& message) {
    const auto& type = message.post_type;
    const size_t images = message.image_urls.size();
    const bool video = message.video.has_value();
    if (!video && images == 0)
        return "Instagram publishes nothing without an image or a video, and this post has "
               "neither";
    for (size_t i = 0; i < images; ++i)
        if (message.upload_of(i))
            return "Instagram takes images only by public URL, and " + message.image_urls[i] +
                   " was to be uploaded";
    if (type == "reel" && !video) return "an Instagram reel is a video, and this post has images";
    if (type == "story" && images > 1)
        return "an Instagram story is one image or one video, and this post has " +
               std::to_string(images) + " images";
    if (images > kMaxCarouselItems)
        return "an Instagram carousel has at most " + std::to_string(kMaxCarouselItems) +
               " images, and this post has " + std::to_string(images);
    if (video) return video_problem(*message.video, type);
    return std::nullopt;
}

bool is_username(const nlohmann::json& value) {
    if (!value.is_string()) return false;
    const auto& name = value.get_ref<const std::string&>();
    return !name.empty() && name.size() <= 30 && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    });
}

}  // namespace

size_t hashtag_count(std::string_view text) {
    size_t count = 0;
    for (size_t i = 0; i + 1 < text.size(); ++i)
        if (text[i] == '#' && word_byte(text[i + 1]) && (i == 0 || !word_byte(text[i - 1])))
            ++count;
    return count;
}

std::optional<std::string> hashtag_problem(std::string_view text) {
    if (const auto hashtags = hashtag_count(text); hashtags > kMaxHashtags)
        return "Instagram captions have at most " + std::to_string(kMaxHashtags) +
               " hashtags (this one has " + std::to_string(hashtags) + ")";
    return std::nullopt;
}

std::optional<std::string> post_problem(const Message& message) {
    if (auto problem = media_problem(message)) return problem;
    return caption_problem(message.text);
}

OptionProblems check_options(const nlohmann::json& options, std::string_view post_type) {
    OptionProblems problems;
    const bool story = post_type == "story";
    for (const auto& [field, value] : options.items()) {
        if (story) {
            problems.push_back({field, "Instagram stories take no options"});
        } else if (field == "share_to_feed") {
            if (post_type != "reel")
                problems.push_back({field, "applies to reels only"});
            else if (!value.is_boolean())
                problems.push_back({field, "must be true or false"});
        } else if (field == "thumb_offset") {
            if (!value.is_number_integer() || value.get<long long>() < 0)
                problems.push_back({field, "must be a number of milliseconds, 0 or more"});
        } else if (field == "collaborators") {
            if (!value.is_array() || value.size() > kMaxCollaborators ||
                !std::all_of(value.begin(), value.end(), is_username))
                problems.push_back({field, "must be a list of at most 3 Instagram usernames"});
        } else if (field == "location_id") {
            if (!value.is_string() || !meta_graph::is_graph_id(value.get<std::string>()))
                problems.push_back({field, "must be the id of a Facebook Page with a location"});
        } else {
            problems.push_back({field, "is not an option of instagram"});
        }
    }
    return problems;
}

}  // namespace squawk::social::instagram
