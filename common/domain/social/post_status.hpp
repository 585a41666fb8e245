// The statuses of a post and of its per-account targets, and the stage a publishing target is
// at: each a closed set with one name table, as rows store them and clients see them (spec 2.3).
#pragma once

#include "common/core/names/wire_names.hpp"

namespace squawk::social {

// In the order the spec lists them, which validation names them in. `external` was published
// natively on the account and imported by a sync; `unpublished` had its messages deleted.
// clang-format off
enum class PostStatus {
    scheduled, published, failed, external, processing, draft, partial,
    unpublished,
};

inline std::span<const char* const> wire_names(PostStatus) {
    static constexpr const char* names[] = {
        "scheduled", "published", "failed", "external", "processing", "draft", "partial",
        "unpublished"};
    return names;
}

// A `scheduled` target's publish job waits for its time; a `queued` one's is due and in the
// stream. An `unpublished` target had its message deleted.
enum class TargetStatus {
    draft, scheduled, queued, publishing,      // open
    published, failed, cancelled, unpublished  // ended
};
// clang-format on

inline std::span<const char* const> wire_names(TargetStatus) {
    static constexpr const char* names[] = {"draft",     "scheduled", "queued",    "publishing",
                                            "published", "failed",    "cancelled", "unpublished"};
    return names;
}

// Where a target in `publishing` is: checked, its media probed and fixed, or sent.
enum class PublishStage { validating, processing_media, publishing };

inline std::span<const char* const> wire_names(PublishStage) {
    static constexpr const char* names[] = {"validating", "processing_media", "publishing"};
    return names;
}

}  // namespace squawk::social
