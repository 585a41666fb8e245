#include "common/extensions/platforms/linkedin/post_options.hpp"

#include <algorithm>

namespace squawk::social::linkedin {
namespace {

using nlohmann::json;

constexpr std::string_view kOrganizationPrefix = "urn:li:organization:";

// The id of an organization named by its id or its URN; empty when it is neither.
std::string organization_id(const nlohmann::json& value) {
    if (!value.is_string()) return "";
    std::string_view id = value.get_ref<const std::string&>();
    if (id.starts_with(kOrganizationPrefix)) id.remove_prefix(kOrganizationPrefix.size());
    const bool digits =
        !id.empty() && id.size() <= 20 &&
        std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
    return digits ? std::string(id) : "";
}

size_t code_points(std::string_view text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

}  // namespace

OptionProblems check_options(const nlohmann::json& options, std::string_view) {
    OptionProblems problems;
    for (const auto& [name, value] : options.items()) {
        if (name == "visibility") {
            if (value != "PUBLIC" && value != "CONNECTIONS")
                problems.push_back({name, "must be PUBLIC or CONNECTIONS"});
        } else if (name == "title") {
            if (!value.is_string() || value.get<std::string>().empty() ||
                code_points(value.get<std::string>()) > kMaxTitleChars)
                problems.push_back({name, "must be a text of 1 to " +
                                              std::to_string(kMaxTitleChars) + " characters"});
        } else if (name == "organization") {
            if (organization_id(value).empty())
                problems.push_back({name,
                                    "must be an organization's id (digits) or its URN "
                                    "urn:li:organization:<id>"});
        } else {
            problems.push_back(
                {name, "is not an option of LinkedIn posts (visibility, title, organization)"});
        }
    }
    // Only a member has connections: a page's posts are public.
    if (options.contains("organization") && options.value("visibility", json()) == "CONNECTIONS")
        problems.push_back({"visibility", "must be PUBLIC for a post as an organization"});
    return problems;
}

std::string visibility_of(const nlohmann::json& options) {
    return options.is_object() && options.value("visibility", "") == "CONNECTIONS" ? "CONNECTIONS"
                                                                                   : "PUBLIC";
}

std::string title_of(const nlohmann::json& options, const std::string& fallback) {
    if (options.is_object() && options.contains("title") && options["title"].is_string())
        return options["title"].get<std::string>();
    return fallback;
}

std::optional<std::string> organization_of(const nlohmann::json& options) {
    if (!options.is_object() || !options.contains("organization")) return std::nullopt;
    const auto id = organization_id(options["organization"]);
    if (id.empty()) return std::nullopt;
    return std::string(kOrganizationPrefix) + id;
}

}  // namespace squawk::social::linkedin
