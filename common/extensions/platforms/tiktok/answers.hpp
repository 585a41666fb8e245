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

// The failure of a step that publishes nothing by itself (the creator's settings, a chunk that
// is not the last): whatever happened, no post was made, so it may be tried again.
PlatformFailure nothing_published(PlatformFailure failure);

PlatformFailure refusal(std::string reason, long http_status = 0);

}  // namespace squawk::social::tiktok
