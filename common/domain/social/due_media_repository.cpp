#include "common/domain/social/due_media_repository.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/domain/jobs/job_types.hpp"
#include "common/domain/social/post_status.hpp"

#include <nlohmann/json.hpp>

#include <set>
#include <utility>

namespace squawk::social {

std::vector<DueMedia> DueMediaRepository::of_jobs(db::Session& s,
                                                  const std::vector<long long>& job_ids) {
    std::vector<DueMedia> out;
    if (job_ids.empty()) return out;
    db::Params params(job_ids.begin(), job_ids.end());
    const auto jobs_in = db::placeholders(params.size()) + ")";
    params.emplace_back(std::string(jobs::kPublishTarget.name));
    // The job names its target in its payload only; targets are then read by primary key.
    std::set<long long> target_ids;
    for (const auto& r :
         s.query("SELECT payload FROM jobs WHERE id IN (" + jobs_in + " AND type = ?", params)) {
        const auto payload = nlohmann::json::parse(r.text(0), nullptr, false);
        if (payload.is_object() && payload.value("target_id", 0LL) > 0)
            target_ids.insert(payload["target_id"].get<long long>());
    }
    if (target_ids.empty()) return out;
    db::Params targets(target_ids.begin(), target_ids.end());
    const auto targets_in = db::placeholders(targets.size()) + ")";
    targets.emplace_back(name_of(TargetStatus::scheduled));
    targets.emplace_back(name_of(TargetStatus::queued));
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto& r : s.query("SELECT t.platform, p.media_urls FROM social_post_targets t"
                                 " JOIN social_posts p ON p.id = t.post_id"
                                 " WHERE t.id IN (" +
                                     targets_in + " AND t.status IN (?, ?)" +
                                     " AND p.media_urls IS NOT NULL AND p.deleted_at IS NULL",
                                 targets)) {
        const auto platform = r.text(0);
        const auto media = r.text(1);
        if (!seen.emplace(platform, media).second) continue;
        const auto urls = nlohmann::json::parse(media, nullptr, false);
        if (!urls.is_array()) continue;
        DueMedia due{platform, {}};
        for (const auto& url : urls)
            if (url.is_string()) due.media_urls.push_back(url.get<std::string>());
        if (!due.media_urls.empty()) out.push_back(std::move(due));
    }
    return out;
}

}  // namespace squawk::social
