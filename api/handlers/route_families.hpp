// Each resource family serves its own routes from its handler file, so adding a family touches
// its file and one name in `Family`.
#pragma once

#include "api/server/route.hpp"

#include <span>

namespace squawk::api::handlers {

enum class Family {
    system,
    me,
    jobs,
    audio,
    articles,
    images,
    presentations,
    videos,
    shorts,
    media,
    profiles,
    social_accounts,
    social_sync,
    social_queues,
    social_posts,
    facebook_pages,
    logs,
    webhooks,
    content_policy,
    count
};

// Defined in the family's handler file.
template <Family F>
std::span<const Route> routes();

}  // namespace squawk::api::handlers
