#include "api/render/post_json.hpp"

namespace squawk::api::render {

nlohmann::json created_post_json(const social::CreatedPost& created) {
    auto data = social::post_json(created.post);
    data["post_id"] = created.post.id;
    data["post_url"] = nullptr;
    data["warnings"] = created.warnings;
    data["idempotent_replay"] = false;
    return data;
}

nlohmann::json post_batch_json(const social::PostBatch& batch, bool dry_run) {
    nlohmann::json warnings = nlohmann::json::array();
    for (size_t i = 0; i < batch.warnings.size(); ++i)
        warnings.push_back({{"index", i}, {"warnings", batch.warnings[i]}});
    if (dry_run) return {{"valid", true}, {"count", batch.rows}, {"warnings", warnings}};
    nlohmann::json posts = nlohmann::json::array();
    for (const auto& post : batch.posts) posts.push_back(social::post_json(post));
    return {{"count", batch.posts.size()}, {"posts", posts}, {"warnings", warnings}};
}

nlohmann::json stopped_recycling_json(const social::StoppedRecycling& stopped) {
    return {{"chain_post_ids", stopped.chain_post_ids},
            {"drafted_post_ids", stopped.drafted_post_ids}};
}

}  // namespace squawk::api::render
