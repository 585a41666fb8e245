// How LinkedIn's versioned REST API (/rest/...) is spoken: the version and Rest.li protocol
// headers every call carries, URNs as path segments, and its answers, a resource or
// {status, serviceErrorCode, code, message}.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::linkedin {

// The API version (YYYYMM) these requests are written against; LinkedIn serves each version for
// a year after its release.
inline constexpr std::string_view kVersion = "202610";

// Creating posts, and the media they show, and comments and reactions, as the member.
inline constexpr std::string_view kMemberPostPermission = "w_member_social";
// Reading the member's posts and their likes and comments: granted to select applications.
inline constexpr std::string_view kReadPermission = "r_member_social";

// The bearer token, LinkedIn-Version and X-Restli-Protocol-Version 2.0.0, and X-RestLi-Method
// when `restli_method` is given (PARTIAL_UPDATE, DELETE, FINDER).
http::HeaderList rest_headers(const Credentials& credentials, std::string_view restli_method = {});

// A URN as one path segment (urn%3Ali%3Ashare%3A7), as Rest.li 2.0 wants it.
std::string urn_segment(std::string_view urn);

// 1 to max_length ASCII digits: the ids in LinkedIn's URNs, and offsets.
bool is_number(std::string_view text, size_t max_length);

// urn:li:share:<digits> or urn:li:ugcPost:<digits>, the ids of posts.
bool is_post_urn(std::string_view urn);
PlatformFailure not_a_post(const std::string& external_id);

// The instant of a field in epoch milliseconds, as LinkedIn gives times.
std::optional<time::TimePoint> from_epoch_ms(const nlohmann::json& object, const char* name);

// The member's URN of a person id ("sub" of the OpenID userinfo).
std::string person_urn(std::string_view person_id);

// An answer with a JSON object (a read, an action's {value}): the object, or why there is none.
// `permission` is the OAuth scope the call needs, named in a 403's reason.
Answer read_resource(const http::Response& response, std::string_view permission);
// 201 Created: a post, its id in the x-restli-id header.
Answer read_created(const http::Response& response, std::string_view permission);
// Any 2xx, whatever its body: an update or a deletion (204), a finished upload (200).
Answer read_done(const http::Response& response, std::string_view permission);

}  // namespace squawk::social::linkedin
