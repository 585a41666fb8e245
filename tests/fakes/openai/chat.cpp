// POST /v1/chat/completions: a markdown article about the last user message, so tests can see
// their prompt came through, or the next content a test queued; max_tokens (counted in words)
// cuts it short with finish_reason "length", as the real service does.
#include "tests/fakes/openai/fake_openai.hpp"

#include <deque>
#include <set>
#include <sstream>
#include <vector>

namespace squawk::fakes::openai {
namespace {

std::deque<std::string>& queued_contents() {
    static std::deque<std::string> contents;
    return contents;
}

std::vector<std::string> words_of(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string word; in >> word;) words.push_back(word);
    return words;
}

std::string topic_of(const std::string& prompt) {
    std::string topic = prompt.substr(0, prompt.find('\n'));
    if (topic.size() > 80) topic.resize(80);
    while (!topic.empty() && (topic.back() == ' ' || topic.back() == '.')) topic.pop_back();
    return topic.empty() ? "Nothing in particular" : topic;
}

std::string article(const std::string& topic) {
    std::string title = topic;
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    return "# " + title + "\n\n" + title +
           " matters to more people than it first appears. This piece looks at it from three "
           "sides: where it came from, what it changes today and what to watch next.\n\n"
           "Where it came from: the story of " +
           topic +
           " starts with small steps that few noticed at the time, each building on the last.\n\n"
           "What to watch next: as " +
           topic + " keeps evolving, the people closest to it expect steady, practical change.\n";
}

// A reason the request is not one the API accepts, with the parameter at fault; empty if valid.
std::pair<std::string, std::string> problem(const nlohmann::json& body) {
    static const std::set<std::string> roles{"system", "developer", "user", "assistant", "tool"};
    if (!body.contains("model") || !body["model"].is_string() || body["model"] == "")
        return {"you must provide a model parameter", "model"};
    const auto& messages = body.value("messages", nlohmann::json());
    if (!messages.is_array() || messages.empty())
        return {"'messages' must be a non-empty array", "messages"};
    for (const auto& m : messages)
        if (!m.is_object() || !m.value("role", nlohmann::json()).is_string() ||
            !roles.contains(m["role"].get<std::string>()) ||
            !m.value("content", nlohmann::json()).is_string())
            return {"each message needs a valid role and a text content", "messages"};
    if (body.contains("max_tokens") &&
        (!body["max_tokens"].is_number_integer() || body["max_tokens"].get<long long>() < 1))
        return {"max_tokens must be a positive integer", "max_tokens"};
    if (body.contains("temperature") &&
        (!body["temperature"].is_number() || body["temperature"].get<double>() < 0 ||
         body["temperature"].get<double>() > 2))
        return {"temperature must be between 0 and 2", "temperature"};
    return {};
}

}  // namespace

HttpAnswer chat_completion(const HttpRequest& request) {
    const auto body = nlohmann::json::parse(request.body, nullptr, false);
    if (!body.is_object())
        return error_answer(400, "We could not parse the JSON body of your request.",
                            "invalid_request_error");
    if (const auto [message, param] = problem(body); !message.empty())
        return error_answer(400, message, "invalid_request_error", param);
    const std::string model = body["model"];
    if (!known_model(model)) return unknown_model(model);

    std::string prompt;
    long long prompt_tokens = 0;
    for (const auto& m : body["messages"]) {
        prompt_tokens += static_cast<long long>(words_of(m["content"]).size());
        if (m["role"] == "user") prompt = m["content"];
    }
    std::string text = article(topic_of(prompt));
    if (!queued_contents().empty()) {
        text = queued_contents().front();
        queued_contents().pop_front();
    }
    auto words = words_of(text);
    std::string finish_reason = "stop";
    const auto limit = static_cast<size_t>(body.value("max_tokens", 4096));
    if (words.size() > limit) {
        words.resize(limit);
        text.clear();
        for (const auto& w : words) text += (text.empty() ? "" : " ") + w;
        finish_reason = "length";
    }
    static long long next_id = 1;
    return json_answer(
        {{"id", "chatcmpl-fake" + std::to_string(next_id++)},
         {"object", "chat.completion"},
         {"created", now_seconds()},
         {"model", model},
         {"choices",
          {{{"index", 0},
            {"message", {{"role", "assistant"}, {"content", text}, {"refusal", nullptr}}},
            {"logprobs", nullptr},
            {"finish_reason", finish_reason}}}},
         {"usage",
          {{"prompt_tokens", prompt_tokens},
           {"completion_tokens", static_cast<long long>(words.size())},
           {"total_tokens", prompt_tokens + static_cast<long long>(words.size())}}}});
}

HttpAnswer queue_completions(const nlohmann::json& body) {
    const auto contents = body.value("contents", nlohmann::json());
    if (!contents.is_array())
        return error_answer(400, "contents must be a list of texts", "control", "contents");
    for (const auto& content : contents) {
        if (!content.is_string())
            return error_answer(400, "contents must be a list of texts", "control", "contents");
        queued_contents().push_back(content.get<std::string>());
    }
    return json_answer(nlohmann::json::object());
}

void forget_completions() {
    queued_contents().clear();
}

}  // namespace squawk::fakes::openai
