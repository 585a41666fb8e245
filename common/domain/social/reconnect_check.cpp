#include "common/domain/social/reconnect_check.hpp"

#include "common/core/error/api_error.hpp"
#include "common/domain/social/account_repository.hpp"

namespace squawk::social {

void refuse_accounts_to_reconnect(const std::vector<std::string>& account_ids) {
    if (account_ids.empty()) return;
    throw ApiError(ErrorCode::ConnectionScopeMissing,
                   "The platform refused the token of an account this post goes to; "
                   "reconnect it first.",
                   {{"account_ids", account_ids}, {"reconnect_required", true}});
}

void refuse_accounts_to_reconnect(db::Session& s, const std::vector<PostTarget>& targets) {
    std::vector<long long> ids;
    for (const auto& t : targets) ids.push_back(t.account_id);
    refuse_accounts_to_reconnect(AccountRepository::to_reconnect(s, ids));
}

}  // namespace squawk::social
