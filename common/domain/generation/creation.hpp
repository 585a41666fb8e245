// A generated resource (an article, an image, a transcript, ...): what was asked, the job making
// it, and what the job wrote. Its state is its job's; its files are the media the job recorded.
#pragma once

#include "common/core/names/wire_names.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/jobs/job_status.hpp"
#include "common/domain/media/media_repository.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::generation {

enum class CreationKind { article, image, transcript, video, presentation, short_video };

inline std::span<const char* const> wire_names(CreationKind) {
    static constexpr const char* names[] = {"article", "image",        "transcript",
                                            "video",   "presentation", "short"};
    return names;
}

// The prefix of each kind's public ids, in the enum's order.
inline std::string_view id_prefix(CreationKind kind) {
    static constexpr std::string_view prefixes[] = {"art_", "img_", "trn_", "vid_", "prs_", "sht_"};
    return prefixes[static_cast<size_t>(kind)];
}

struct Creation {
    long long id = 0;
    std::string public_id;
    long long workspace_id = 0;
    CreationKind kind = CreationKind::article;
    long long job_id = 0;
    std::string job_public_id;
    jobs::JobStatus status = jobs::JobStatus::queued;  // its job's
    int progress = 0;
    nlohmann::json request;  // as accepted
    nlohmann::json output;   // null until the job wrote it
    nlohmann::json error;    // its job's, when it failed
    // What its job was paid with, in 1/10,000 credit (jobs::Job).
    std::optional<long long> reserved_units;
    std::optional<long long> charged_units;
    bool refunded = false;
    std::vector<media::Media> media;
    time::TimePoint created_at;
    time::TimePoint updated_at;
};

struct CreationPage {
    std::vector<Creation> items;
    long long total = 0;
};

}  // namespace squawk::generation
