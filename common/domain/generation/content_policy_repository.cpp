#include "common/domain/generation/content_policy_repository.hpp"

#include "common/core/db/sql_text.hpp"

#include <mutex>
#include <unordered_map>

namespace squawk::generation {
namespace {

constexpr const char* kWord = "word";
constexpr const char* kPattern = "pattern";

// Compiled policies by workspace, each with the lists it was compiled from; a bound keeps a flood
// of workspaces from growing it without end.
class CompiledPolicies {
  public:
    std::shared_ptr<const ContentPolicy> get(long long workspace_id,
                                             const ContentPolicyLists& lists) {
        {
            std::lock_guard lock(mutex_);
            const auto found = by_workspace_.find(workspace_id);
            if (found != by_workspace_.end() && found->second.lists.words == lists.words &&
                found->second.lists.patterns == lists.patterns)
                return found->second.policy;
        }
        auto policy = std::make_shared<const ContentPolicy>(lists);
        std::lock_guard lock(mutex_);
        if (by_workspace_.size() >= kMaxWorkspaces) by_workspace_.clear();
        by_workspace_[workspace_id] = Entry{lists, policy};
        return policy;
    }

  private:
    static constexpr size_t kMaxWorkspaces = 10000;
    struct Entry {
        ContentPolicyLists lists;
        std::shared_ptr<const ContentPolicy> policy;
    };
    std::mutex mutex_;
    std::unordered_map<long long, Entry> by_workspace_;
};

}  // namespace

ContentPolicyLists ContentPolicyRepository::load(db::Session& s, long long workspace_id) {
    ContentPolicyLists lists;
    for (const auto& row : s.query("SELECT kind, value FROM content_policy_rules"
                                   " WHERE workspace_id = ? ORDER BY id",
                                   {workspace_id}))
        (row.text(0) == kWord ? lists.words : lists.patterns).push_back(row.text(1));
    return lists;
}

void ContentPolicyRepository::replace(db::Session& s, long long workspace_id,
                                      const ContentPolicyLists& lists) {
    s.execute("DELETE FROM content_policy_rules WHERE workspace_id = ?", {workspace_id});
    if (lists.empty()) return;
    const auto now = db::time_param(time::now());
    db::Params params;
    size_t rows = 0;
    const auto add = [&](const char* kind, const std::vector<std::string>& values) {
        for (const auto& value : values) {
            params.insert(params.end(), {workspace_id, std::string(kind), value, now});
            ++rows;
        }
    };
    add(kWord, lists.words);
    add(kPattern, lists.patterns);
    std::string values;
    for (size_t i = 0; i < rows; ++i) values += i == 0 ? "(?,?,?,?)" : ",(?,?,?,?)";
    s.execute(
        "INSERT INTO content_policy_rules (workspace_id, kind, value, created_at) VALUES " + values,
        params);
}

std::shared_ptr<const ContentPolicy> workspace_content_policy(db::MysqlPool& mysql,
                                                              long long workspace_id) {
    static CompiledPolicies compiled;
    const auto lists =
        mysql.run([&](db::Session& s) { return ContentPolicyRepository::load(s, workspace_id); });
    if (lists.empty()) return nullptr;
    return compiled.get(workspace_id, lists);
}

}  // namespace squawk::generation
