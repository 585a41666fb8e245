// The API's JSON for social post answers (spec 2.3): the 201 answer to a creation, a bulk batch
// (stored or dry run) and a stopped recycling chain. The post object itself is
// social::post_json, which the post.* events carry too.
#pragma once

#include "common/domain/social/post_json.hpp"
#include "common/domain/social/post_service.hpp"

#include <nlohmann/json.hpp>

namespace squawk::api::render {

// The post plus post_id, post_url, warnings and idempotent_replay.
nlohmann::json created_post_json(const social::CreatedPost& created);
// count, posts and each row's warnings; a dry run answers valid, count and warnings.
nlohmann::json post_batch_json(const social::PostBatch& batch, bool dry_run);
nlohmann::json stopped_recycling_json(const social::StoppedRecycling& stopped);

}  // namespace squawk::api::render
