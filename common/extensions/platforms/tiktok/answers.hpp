// How TikTok's API v2 answers: {data, error: {code, message, log_id}}, the code "ok" on success
// and a word such as access_token_invalid, scope_not_authorized or rate_limit_exceeded otherwise;
// and how its failures read for the publish worker.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <string>
#include <string_view>

namespace squawk::social::tiktok {

// The answer's data, or why there is none. A dead token's refusal names the access_token field;
// a scope the account did not grant is named (`scope`, the one the call needs); throttling
// (rate_limit_exceeded, the daily post cap spam_risk_too_many_posts) is not accepted and says
// when to try again.
Answer read(const http::Response& response, std::string_view scope);

}  // namespace squawk::social::tiktok
