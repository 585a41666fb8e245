#include "common/extensions/platforms/instagram/containers.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/extensions/platforms/instagram/graph.hpp"

#include <chrono>
#include <iterator>
#include <stdexcept>

namespace squawk::social::instagram {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

constexpr std::string_view kPublishing = "instagram_content_publish";

// Pauses between status reads of a container still IN_PROGRESS: an image is ready at once as a
// rule, a video after Instagram has transcoded it (Meta advises reading about once a minute, for
// up to five minutes). A publish should not hold its worker longer than about a minute; a
// container still in progress then is not accepted, to be tried again later.
constexpr std::chrono::milliseconds kStatusPauses[] = {250ms,  500ms,  1000ms,  2000ms,
                                                       4000ms, 8000ms, 15000ms, 30000ms};
constexpr std::chrono::seconds kProcessingRetry{60};

// media_publish's refusal of a container not yet FINISHED: (#9007) "Media ID is not available",
// subcode 2207027 "the media is not ready for publishing".
constexpr meta_graph::GraphError kMediaNotReady{9007, 2207027};

// The rupload host answers {success: true, message} or, refusing, {debug_info: {retriable, type,
// message}}.
std::string upload_reason(const json& body) {
    if (body.is_object() && body.contains("debug_info") && body["debug_info"].is_object())
        return json_text(body["debug_info"], "message");
    return body.is_object() && body.contains("error") && body["error"].is_object()
               ? json_text(body["error"], "message")
               : std::string();
}

constexpr AnswerShape kUploaded{
    .speaker = "Instagram's upload host",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() && body.value("success", false) == true;
        },
    .reason = upload_reason,
};

bool is_video_post(const Message& message) {
    return message.video.has_value();
}

// The post's options as the container takes them (check_options accepted them). Stories take
// none; a cover frame and sharing to the feed apply to videos.
void add_options(http::FormFields& fields, const Message& message) {
    const auto& options = message.options;
    if (options.contains("collaborators"))
        fields.emplace_back("collaborators", options["collaborators"].dump());
    if (options.contains("location_id"))
        fields.emplace_back("location_id", options["location_id"].get<std::string>());
    if (!is_video_post(message)) return;
    if (options.contains("thumb_offset"))
        fields.emplace_back("thumb_offset",
                            std::to_string(options["thumb_offset"].get<long long>()));
    // A post's video is published as a reel shown in the feed too, as feed videos now are.
    const bool to_feed = options.value("share_to_feed", true);
    fields.emplace_back("share_to_feed", to_feed ? "true" : "false");
}

}  // namespace

Container Containers::prepare(const Message& message) {
    const bool story = message.post_type == "story";
    const auto& images = message.image_urls;
    Container container;
    if (story) {
        // Stories show no caption: Instagram takes none for them.
        container = is_video_post(message)
                        ? create_for_video({{"media_type", "STORIES"}}, *message.video)
                        : create({{"media_type", "STORIES"}, {"image_url", images.front()}});
    } else {
        http::FormFields fields;
        if (is_video_post(message)) {
            fields = {{"media_type", "REELS"}};
        } else if (images.size() == 1) {
            fields = {{"image_url", images.front()}};
        } else {
            std::string children;
            for (const auto& url : images) {
                auto item = create({{"image_url", url}, {"is_carousel_item", "true"}});
                if (item.failure) return item;
                children += (children.empty() ? "" : ",") + item.id;
            }
            fields = {{"media_type", "CAROUSEL"}, {"children", children}};
        }
        if (!message.text.empty()) fields.emplace_back("caption", message.text);
        add_options(fields, message);
        container = is_video_post(message) ? create_for_video(std::move(fields), *message.video)
                                           : create(std::move(fields));
    }
    // A video is never ready as soon as it is uploaded: Instagram transcodes it first.
    if (!container.failure && is_video_post(message))
        container.failure = wait_until_finished(container.id);
    return container;
}

// An image container is published at once: one call, not three, for most posts.
Publication Containers::publish(const std::string& container_id) {
    Publication p;
    auto published =
        meta_graph::publish_when_ready([&] { return media_publish(container_id); }, kMediaNotReady,
                                       [&] { return wait_until_finished(container_id); });
    if (published.failure) {
        p.failure = std::move(published.failure);
        return p;
    }
    p.message_id = meta_graph::graph_id(published.body, "id");
    if (p.message_id.empty())
        p.failure = failure_of(FailureKind::unknown_outcome,
                               "Instagram published the media without naming it", 200);
    if (auto link = json_text(published.body, "permalink"); !link.empty()) p.url = std::move(link);
    return p;
}

// The Graph API's read-after-write: a POST given `fields` answers those fields of what it made,
// so the media's permalink comes with its id rather than from a read back.
Answer Containers::media_publish(const std::string& container_id) {
    return read_object(api_.send("POST",
                                 graph_path(user_ + "/media_publish?" +
                                            http::form_encode({{"creation_id", container_id},
                                                               {"fields", "id,permalink"}})),
                                 meta_graph::bearer(token_)),
                       kPublishing);
}

Container Containers::create(http::FormFields fields) {
    Container container;
    auto answer =
        read_object(api_.send("POST", graph_path(user_ + "/media"), meta_graph::bearer(token_),
                              "application/x-www-form-urlencoded", http::form_encode(fields)),
                    kPublishing);
    if (answer.failure) {
        container.failure = nothing_published(std::move(*answer.failure));
        return container;
    }
    container.id = meta_graph::graph_id(answer.body, "id");
    if (container.id.empty())
        container.failure = failure_of(FailureKind::not_accepted,
                                       "Instagram made a media container without an id", 200);
    container.upload_uri = json_text(answer.body, "uri");
    return container;
}

Container Containers::create_for_video(http::FormFields fields, const Video& video) {
    fields.emplace_back("upload_type", "resumable");
    auto container = create(std::move(fields));
    if (container.failure) return container;
    if (container.upload_uri.empty()) {
        container.failure = failure_of(FailureKind::not_accepted,
                                       "Instagram gave no address to upload the video to", 200);
        return container;
    }
    container.failure = upload(container.upload_uri, video);
    return container;
}

// The file in pieces of at most kVideoChunkBytes, each saying where it starts (offset) and how
// large the whole is (file_size), as Instagram's resumable upload takes them.
std::optional<PlatformFailure> Containers::upload(const std::string& uri, const Video& video) {
    if (video.bytes <= 0) return failure_of(FailureKind::refused, "the video file is empty", 0);
    for (long long offset = 0; offset < video.bytes;) {
        std::string chunk;
        try {
            chunk = video.read_chunk(offset, kVideoChunkBytes);
        } catch (const std::runtime_error& e) {
            return failure_of(FailureKind::refused,
                              std::string("the video file could not be read: ") + e.what(), 0);
        }
        if (chunk.empty())
            return failure_of(FailureKind::refused,
                              "the video file is shorter than the " + std::to_string(video.bytes) +
                                  " bytes it was said to have",
                              0);
        const auto size = static_cast<long long>(chunk.size());
        const auto answer = read_answer(api_.send("POST", uri,
                                                  {{"Authorization", "OAuth " + token_},
                                                   {"offset", std::to_string(offset)},
                                                   {"file_size", std::to_string(video.bytes)}},
                                                  "application/octet-stream", std::move(chunk)),
                                        kUploaded);
        if (answer.failure) return nothing_published(*answer.failure);
        offset += size;
    }
    return std::nullopt;
}

// Nothing once the container is FINISHED; its status when it ends in ERROR.
std::optional<PlatformFailure> Containers::wait_until_finished(const std::string& id) {
    for (size_t read = 0;; ++read) {
        auto answer = read_object(api_.send("GET", graph_path(id + "?fields=status_code,status"),
                                            meta_graph::bearer(token_)),
                                  kPublishing);
        if (answer.failure) return nothing_published(std::move(*answer.failure));
        const auto code = json_text(answer.body, "status_code");
        if (code == "FINISHED") return std::nullopt;
        if (code == "ERROR") {
            const auto status = json_text(answer.body, "status");
            return failure_of(FailureKind::refused,
                              status.empty() ? "Instagram could not process the media"
                                             : "Instagram could not process the media: " + status,
                              200);
        }
        if (code != "IN_PROGRESS")
            return failure_of(FailureKind::not_accepted,
                              "Instagram's media container is " +
                                  (code.empty() ? std::string("of no status") : code),
                              200);
        if (read == std::size(kStatusPauses)) {
            auto busy = failure_of(FailureKind::not_accepted,
                                   "Instagram was still processing the post's media", 200);
            busy.retry_after = kProcessingRetry;
            return busy;
        }
        time::pause(time::scaled(kStatusPauses[read]));
    }
}

}  // namespace squawk::social::instagram
