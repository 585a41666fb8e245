// A workspace's own content policy (scopes workspaces:read / workspaces:write): blocked words and
// patterns that generate calls are checked against, beside the deployment's global lists.
#include "api/handlers/route_families.hpp"

#include "api/render/content_policy_json.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/domain/generation/content_policy_repository.hpp"

#include <array>
#include <functional>
#include <set>

namespace squawk::api::handlers {
namespace {

using generation::ContentPolicyLists;

bool is_blank(const std::string& text) {
    return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

// The strings of array `name` (required, up to `max_items`), each checked by `problem`; a bad
// entry is named by its index ("patterns[2]").
std::vector<std::string> read_entries(
    Validator& body, const std::string& name, size_t max_items,
    const std::function<std::optional<std::string>(const std::string&)>& problem) {
    std::vector<std::string> out;
    const auto* given = body.optional_array(name, 0, max_items);
    if (!given) {
        if (!body.problems().contains(name))
            body.reject(name, "required: an array of up to " + std::to_string(max_items) +
                                  " strings (empty to clear)");
        return out;
    }
    std::set<std::string> seen;
    for (size_t i = 0; i < given->size(); ++i) {
        const std::string field = name + "[" + std::to_string(i) + "]";
        const auto& entry = (*given)[i];
        if (!entry.is_string()) {
            body.reject(field, "must be a string");
            continue;
        }
        const auto& text = entry.get_ref<const std::string&>();
        if (auto why = problem(text)) {
            body.reject(field, *why);
        } else if (!seen.insert(text).second) {
            body.reject(field, "appears twice");
        } else {
            out.push_back(text);
        }
    }
    return out;
}

std::optional<std::string> word_problem(const std::string& word) {
    if (is_blank(word)) return "must not be blank";
    if (word.size() > generation::kMaxPolicyWordChars)
        return "must be at most " + std::to_string(generation::kMaxPolicyWordChars) + " characters";
    return std::nullopt;
}

bool global_policy_active(const Services& services) {
    return !services.content_policy.empty();
}

Reply get_content_policy(const RequestContext& ctx, Services& services) {
    const auto lists = services.mysql.run([&](db::Session& s) {
        return generation::ContentPolicyRepository::load(s, ctx.workspace_id);
    });
    return Reply::ok(render::content_policy_json(lists, global_policy_active(services)));
}

Reply put_content_policy(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    ContentPolicyLists lists;
    lists.words = read_entries(body, "words", generation::kMaxPolicyWords, word_problem);
    lists.patterns =
        read_entries(body, "patterns", generation::kMaxPolicyPatterns, generation::pattern_problem);
    body.reject_unknown_fields();
    body.finish();
    services.mysql.transaction([&](db::Session& s) {
        generation::ContentPolicyRepository::replace(s, ctx.workspace_id, lists);
    });
    return Reply::ok(render::content_policy_json(lists, global_policy_active(services)));
}

}  // namespace

template <>
std::span<const Route> routes<Family::content_policy>() {
    static constexpr std::array kRoutes{
        Route::get("/v1/content-policy", Access::needs("workspaces:read"), get_content_policy),
        Route::put("/v1/content-policy", Access::needs("workspaces:write"), put_content_policy),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
