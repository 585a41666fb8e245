// Jobs in a state they never leave (completed, cancelled, failed without a dead letter that an
// operator could requeue), kept rendered in the API process so polling them skips MySQL. Keyed by
// workspace and public id: another workspace's job is never found here.
#pragma once

#include "common/domain/jobs/job.hpp"

#include <nlohmann/json.hpp>

#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace squawk::api {

class FinishedJobCache {
  public:
    // The rendered job (render::job_json), if it was remembered.
    std::optional<nlohmann::json> find(long long workspace_id, const std::string& public_id);
    // Keeps `rendered` when `job` can no longer change; otherwise does nothing.
    void remember(const jobs::Job& job, const nlohmann::json& rendered);

  private:
    // Bounds memory (a few hundred bytes each); past it the cache starts over.
    static constexpr size_t kMaxEntries = 20000;

    std::mutex mutex_;
    std::unordered_map<std::string, nlohmann::json> entries_;
};

}  // namespace squawk::api
