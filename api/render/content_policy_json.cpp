#include "api/render/content_policy_json.hpp"

namespace squawk::api::render {

nlohmann::json content_policy_json(const generation::ContentPolicyLists& lists,
                                   bool global_policy_active) {
    return {{"words", lists.words},
            {"patterns", lists.patterns},
            {"global_policy_active", global_policy_active}};
}

}  // namespace squawk::api::render
