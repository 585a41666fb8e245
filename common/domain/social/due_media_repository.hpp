// What the publish worker's media prefetcher reads: the platforms and media URLs of the publish
// jobs due soon, so that their media are fetched before the posts' time.
#pragma once

#include "common/core/db/mysql_pool.hpp"

#include <string>
#include <vector>

namespace squawk::social {

struct DueMedia {
    std::string platform;
    std::vector<std::string> media_urls;  // in the post's order, never empty
};

class DueMediaRepository {
  public:
    // For the publish jobs `job_ids`: each target still waiting to be sent whose post has media,
    // once per platform and media list.
    static std::vector<DueMedia> of_jobs(db::Session& s, const std::vector<long long>& job_ids);
};

}  // namespace squawk::social
