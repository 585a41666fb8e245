#include "api/server/path_ids.hpp"

#include "common/core/error/api_error.hpp"

#include <charconv>

namespace squawk::api {

long long integer_path_id(const RequestContext& ctx, const std::string& name) {
    const auto& text = ctx.param(name);
    long long id = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (error != std::errc() || end != text.data() + text.size() || id <= 0)
        throw ApiError(ErrorCode::NotFound, "No resource with this id.");
    return id;
}

}  // namespace squawk::api
