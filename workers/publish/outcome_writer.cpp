#include "workers/publish/outcome_writer.hpp"

#include "common/domain/events/event_outbox.hpp"
#include "common/domain/social/post_json.hpp"
#include "common/domain/social/post_repository.hpp"
#include "common/domain/social/recycling.hpp"

namespace squawk::workers::publish {

std::vector<Settlement> write_outcomes(db::Session& s,
                                       const std::vector<social::TargetOutcome>& outcomes) {
    std::vector<Settlement> out(outcomes.size());
    const auto settled = social::PublishRepository::record_outcomes(s, outcomes);
    for (size_t i = 0; i < settled.size(); ++i) {
        if (!settled[i]) continue;
        auto next = social::next_occurrence(*settled[i]);
        if (!next) continue;
        auto written = social::PostRepository::insert(s, *next);
        auto data = social::post_json(written);
        data["post_id"] = written.id;
        data["previous_post_id"] = settled[i]->id;
        events::emit(s, written.workspace_id, "post.recycled", data);
        out[i].recycled = std::move(written);
    }
    return out;
}

}  // namespace squawk::workers::publish
