#include "api/dashboard/form.hpp"

#include "common/core/error/api_error.hpp"

namespace squawk::api::dashboard {

http::FormFields parse_form(std::string_view body) {
    http::FormFields fields;
    while (!body.empty()) {
        const size_t amp = body.find('&');
        const std::string_view pair = body.substr(0, amp);
        body = amp == std::string_view::npos ? std::string_view{} : body.substr(amp + 1);
        if (pair.empty()) continue;
        if (fields.size() == kMaxFormFields)
            throw ApiError(ErrorCode::InvalidRequest, "The form has too many fields.");
        const size_t eq = pair.find('=');
        auto name = http::percent_decode(pair.substr(0, eq), true);
        auto value = http::percent_decode(
            eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1), true);
        if (!name || !value)
            throw ApiError(ErrorCode::InvalidRequest, "The form is not correctly encoded.");
        fields.emplace_back(std::move(*name), std::move(*value));
    }
    return fields;
}

}  // namespace squawk::api::dashboard
