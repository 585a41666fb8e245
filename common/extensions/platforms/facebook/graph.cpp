#include "common/extensions/platforms/facebook/graph.hpp"

#include <algorithm>
#include <cctype>

namespace squawk::social::facebook {
namespace {

constexpr AnswerShape kObjects = meta_graph::object_answer("Facebook");
constexpr AnswerShape kTokens = meta_graph::token_answer("Facebook's token endpoint");

Answer read(const http::Response& response, const AnswerShape& shape) {
    auto answer = meta_graph::read(response, shape);
    if (answer.failure && answer.failure->kind == FailureKind::not_accepted &&
        !answer.failure->retry_after)
        answer.failure->retry_after = meta_graph::business_use_case_wait(response);
    return answer;
}

}  // namespace

std::string graph_path(std::string_view rest) {
    return std::string(kGraphVersion) + std::string(rest);
}

Answer read_object(const http::Response& response) {
    return read(response, kObjects);
}

Answer read_token(const http::Response& response) {
    return read(response, kTokens);
}

bool is_graph_id(std::string_view text) {
    if (text.empty() || text.size() > 64) return false;
    const auto underscore = text.find('_');
    const auto digits = [](std::string_view part) {
        return !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
        });
    };
    if (underscore == std::string_view::npos) return digits(text);
    return digits(text.substr(0, underscore)) && digits(text.substr(underscore + 1));
}

std::string graph_id(const nlohmann::json& object, const char* name) {
    return meta_graph::graph_id(object, name, is_graph_id);
}

}  // namespace squawk::social::facebook
