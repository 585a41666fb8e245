// Parses the --scopes argument of `squawkctl key create`: "all" or a comma-separated list of the
// scope names of spec section 5.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace squawk::ctl {

// "all" becomes {"*"}; anything else must name known scopes. Throws UsageError naming the first
// unknown scope, or when the list is empty.
std::set<std::string> parse_scope_list(std::string_view text);

}  // namespace squawk::ctl
