#include "api/server/finished_job_cache.hpp"

#include "api/server/envelope.hpp"

namespace squawk::api {
namespace {

std::string slot(long long workspace_id, const std::string& public_id) {
    return std::to_string(workspace_id) + '/' + public_id;
}

bool is_final(const jobs::Job& job) {
    if (job.status == jobs::JobStatus::failed) return !job.dead_lettered;
    return job.status == jobs::JobStatus::completed || job.status == jobs::JobStatus::cancelled;
}

}  // namespace

std::optional<std::string> FinishedJobCache::find(long long workspace_id,
                                                  const std::string& public_id) {
    const std::string id = slot(workspace_id, public_id);
    std::lock_guard lock(mutex_);
    const auto it = entries_.find(id);
    if (it == entries_.end()) return std::nullopt;
    return it->second;
}

void FinishedJobCache::remember(const jobs::Job& job, const nlohmann::json& rendered) {
    if (!is_final(job)) return;
    std::string id = slot(job.workspace_id, job.public_id);
    std::string wire = to_wire(rendered);
    std::lock_guard lock(mutex_);
    if (entries_.size() >= kMaxEntries) entries_.clear();
    entries_.insert_or_assign(std::move(id), std::move(wire));
}

}  // namespace squawk::api
