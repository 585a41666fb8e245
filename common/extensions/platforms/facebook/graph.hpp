// What the Facebook Graph API adds to Meta's (meta_graph): its version, its speaker, the usage
// headers a throttled caller waits by, and a Page post's id of two parts.
#pragma once

#include "common/domain/social/meta_graph.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace squawk::social::facebook {

// The Graph API version every path is under.
inline constexpr std::string_view kGraphVersion = "/v19.0/";

// `rest` (an object, an edge, a query) under kGraphVersion.
std::string graph_path(std::string_view rest);

// An answer of the Graph API: the object, or why there is none. A dead token's refusal names the
// access_token field; throttling waits as long as the usage headers say.
Answer read_object(const http::Response& response);
// An answer of the token endpoint: one carrying an access_token, or why there is none.
Answer read_token(const http::Response& response);

// Whether `text` is a Graph id: digits, or a Page post's {page}_{post}.
bool is_graph_id(std::string_view text);
// The Graph id in member `name` of `object` as is_graph_id reads them; "" when there is none.
std::string graph_id(const nlohmann::json& object, const char* name);

}  // namespace squawk::social::facebook
