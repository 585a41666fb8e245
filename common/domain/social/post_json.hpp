// A post as clients see it (spec 2.3 fields plus publish_stage, post_urls with _errors and
// _transcodes, targets, recycling lineage and configuration). It lives in the domain, not in
// api/render, because the post.* events carry the same object, so webhooks and API answers agree.
#pragma once

#include "common/domain/social/post.hpp"

#include <nlohmann/json.hpp>

namespace squawk::social {

nlohmann::json post_json(const Post& post);

}  // namespace squawk::social
