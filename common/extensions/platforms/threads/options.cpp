#include "common/extensions/platforms/threads/options.hpp"

#include "common/domain/social/meta_graph.hpp"

namespace squawk::social::threads {

OptionProblems check_options(const nlohmann::json& options, std::string_view) {
    OptionProblems problems;
    for (const auto& [name, value] : options.items()) {
        if (name == "reply_to") {
            if (!value.is_string() || !meta_graph::is_graph_id(value.get<std::string>()))
                problems.push_back({name, "must be the id of a Threads post (a string of digits)"});
        } else {
            problems.push_back({name, "is not an option of Threads posts (reply_to)"});
        }
    }
    return problems;
}

std::string reply_to_of(const nlohmann::json& options) {
    if (!options.is_object() || !options.contains("reply_to") || !options["reply_to"].is_string())
        return "";
    return options["reply_to"].get<std::string>();
}

}  // namespace squawk::social::threads
