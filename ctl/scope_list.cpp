#include "ctl/scope_list.hpp"

#include "common/domain/auth/api_key.hpp"
#include "ctl/usage_error.hpp"

namespace squawk::ctl {
namespace {

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    const auto last = s.find_last_not_of(" \t");
    return s.substr(first, last - first + 1);
}

}  // namespace

std::set<std::string> parse_scope_list(std::string_view text) {
    if (trim(text) == "all") return {"*"};
    std::set<std::string> scopes;
    std::string_view rest = text;
    while (true) {
        const auto comma = rest.find(',');
        const std::string name(trim(rest.substr(0, comma)));
        if (!name.empty()) {
            if (auth::known_scopes().count(name) == 0)
                throw UsageError("unknown scope '" + name + "'");
            scopes.insert(name);
        }
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    if (scopes.empty()) throw UsageError("--scopes needs \"all\" or at least one scope name");
    return scopes;
}

}  // namespace squawk::ctl
