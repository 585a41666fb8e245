// Jobs in a state they never leave (completed, cancelled, failed without a dead letter that an
// operator could requeue), kept rendered and serialized in the API process so polling them skips
// MySQL and building their JSON. Keyed by workspace and public id: another workspace's job is
// never found here.
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
    // The rendered job (render::job_json) as to_wire serialized it, if it was remembered.
    std::optional<std::string> find(long long workspace_id, const std::string& public_id);
    // Keeps `rendered` when `job` can no longer change; otherwise does nothing.
    void remember(const jobs::Job& job, const nlohmann::json& rendered);

  private:
    // Bounds memory (a few hundred bytes each); past it the cache starts over.
    static constexpr size_t kMaxEntries = 20000;

    std::mutex mutex_;
    std::unordered_map<std::string, std::string> entries_;
};

}  // namespace squawk::api
