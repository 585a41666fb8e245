#include "api/server/url_decode.hpp"

#include "common/core/error/api_error.hpp"
#include "common/core/http/form_encoding.hpp"

namespace squawk::api {
namespace {

ApiError bad_query(const std::string& reason) {
    return ApiError(ErrorCode::InvalidRequest, "The query string is malformed.",
                    {{"reason", reason}});
}

}  // namespace

QueryParams decode_query(const std::vector<std::pair<std::string, std::string>>& raw) {
    if (raw.size() > kMaxQueryParams) throw bad_query("too many query parameters");
    QueryParams params;
    for (const auto& [raw_key, raw_value] : raw) {
        auto key = http::percent_decode(raw_key, true);
        if (!key || key->empty() || key->size() > kMaxQueryKeyBytes)
            throw bad_query("a query parameter name is malformed or too long");
        auto value = http::percent_decode(raw_value, true);
        if (!value) throw bad_query("query parameter '" + *key + "' is not correctly encoded");
        if (value->size() > kMaxQueryValueBytes)
            throw bad_query("query parameter '" + *key + "' is too long");
        params.insert_or_assign(std::move(*key), std::move(*value));
    }
    return params;
}

}  // namespace squawk::api
