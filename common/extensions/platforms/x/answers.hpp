// How X's API v2 answers and is answered: the account's bearer token, X's words in an error body,
// and what a refusal means for the account (a 401 is its token, a bare Forbidden a missing scope,
// a 429 waits until x-rate-limit-reset).
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::social::x {

// X's words in an error body: the messages of {errors: [{message} or {detail}]} (a request it
// could not take, where the problem details around them only say "Invalid Request"), else the
// problem details' detail or title (RFC 7807: {title, detail, type, status}).
std::string reason_of(const nlohmann::json& body);

// A list of posts (a user's timeline, a search): {data: [...], meta}, without data when empty.
extern const AnswerShape kTimeline;

// An answer of `shape`, its failure classified as above.
Answer read(const http::Response& response, const AnswerShape& shape);

}  // namespace squawk::social::x
