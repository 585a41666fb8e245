#include "common/extensions/platforms/telegram/connector.hpp"

#include "common/core/http/multipart.hpp"
#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/telegram/factory.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace squawk::social::telegram {
namespace {

using nlohmann::json;

bool is_username(std::string_view name) {
    if (name.size() < 5 || name.size() > 32) return false;
    if (!std::isalpha(static_cast<unsigned char>(name.front()))) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

bool all_digits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The Bot API answers {ok, result} or {ok: false, description, parameters: {retry_after}}.
constexpr AnswerShape kAnswers{
    .speaker = "Telegram",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() && body.value("ok", false) &&
                   body.contains("result");
        },
    .payload = "result",
    .reason = [](const json& body) { return json_text(body, "description"); },
    .retry_after = [](const json& body) -> std::optional<std::chrono::seconds> {
        const auto& parameters =
            body.is_object() ? body.value("parameters", json::object()) : json::object();
        if (parameters.is_object() && parameters.contains("retry_after") &&
            parameters["retry_after"].is_number_integer())
            return std::chrono::seconds(parameters["retry_after"].get<long long>());
        return std::nullopt;
    },
};

Answer read(const http::Response& response) {
    return read_answer(response, kAnswers);
}

std::string id_of(const json& object, const char* name) {
    if (!object.is_object() || !object.contains(name)) return {};
    const auto& v = object[name];
    if (v.is_number_integer()) return std::to_string(v.get<long long>());
    if (v.is_string()) return v.get<std::string>();
    return {};
}

class TelegramConnector final : public Connector {
  public:
    TelegramConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory), api_(settings, http) {}

    std::vector<FieldProblem> check(Credentials& credentials) const override {
        std::vector<FieldProblem> problems;
        if (credentials["bot_token"].empty())
            problems.push_back({"bot_token", "is required"});
        else if (!is_bot_token(credentials["bot_token"]))
            problems.push_back({"bot_token", "is not a Telegram bot token (<bot id>:<secret>)"});
        if (credentials["chat"].empty())
            problems.push_back({"chat", "is required"});
        else if (auto chat = parse_chat(credentials["chat"]))
            credentials["chat"] = *chat;
        else
            problems.push_back({"chat", "must be @username, a t.me link or a numeric chat id"});
        return problems;
    }

    Verification verify(const Credentials& credentials) override {
        Verification v;
        const std::string& token = credentials.at("bot_token");
        auto me = read(call(token, "getMe", json::object()));
        if (me.failure) {
            v.failure = std::move(me.failure);
            v.failure->field = "bot_token";
            return v;
        }
        const std::string& chat_id = credentials.at("chat");
        auto chat = read(call(token, "getChat", {{"chat_id", chat_id}}));
        if (chat.failure) {
            v.failure = std::move(chat.failure);
            v.failure->field = "chat";
            return v;
        }
        auto member = read(call(token, "getChatMember",
                                {{"chat_id", chat_id}, {"user_id", me.body.value("id", 0LL)}}));
        if (member.failure) {
            v.failure = std::move(member.failure);
            v.failure->field = "chat";
            return v;
        }
        if (auto refusal =
                posting_refusal(json_text(chat.body, "type"), json_text(member.body, "status"))) {
            v.failure = PlatformFailure{FailureKind::refused, *refusal, std::nullopt, 200, "chat"};
            return v;
        }
        Identity identity;
        identity.external_id = id_of(chat.body, "id");
        identity.handle = json_text(chat.body, "username");
        identity.display_name = json_text(chat.body, "title");
        if (identity.display_name.empty())
            identity.display_name = identity.handle.empty() ? json_text(chat.body, "first_name")
                                                            : "@" + identity.handle;
        if (identity.external_id.empty()) {
            v.failure = PlatformFailure{FailureKind::not_accepted,
                                        "Telegram's getChat answer has no chat id", std::nullopt,
                                        200, "chat"};
            return v;
        }
        v.identity = std::move(identity);
        return v;
    }

    Publication publish(const Target& target, const Message& message) override {
        const std::string& token = target.credentials.at("bot_token");
        const std::string& chat_id = target.identity.external_id;
        Answer answer;
        if (message.image_urls.empty()) {
            answer =
                read(call(token, "sendMessage", {{"chat_id", chat_id}, {"text", message.text}}));
        } else if (message.image_urls.size() == 1) {
            const char* kind = message.images_as_documents ? "document" : "photo";
            const char* method = message.images_as_documents ? "sendDocument" : "sendPhoto";
            json body{{"chat_id", chat_id}};
            if (!message.text.empty()) body["caption"] = message.text;
            if (const auto* file = message.upload_of(0))
                answer = read(call_with_files(token, method, body, {{kind, file}}));
            else {
                body[kind] = message.image_urls.front();
                answer = read(call(token, method, body));
            }
        } else {
            json media = json::array();
            std::vector<std::pair<std::string, const Upload*>> files;
            for (size_t i = 0; i < message.image_urls.size(); ++i) {
                json item{{"type", message.images_as_documents ? "document" : "photo"},
                          {"media", message.image_urls[i]}};
                if (const auto* file = message.upload_of(i)) {
                    files.emplace_back("file" + std::to_string(i), file);
                    item["media"] = "attach://" + files.back().first;
                }
                if (media.empty() && !message.text.empty()) item["caption"] = message.text;
                media.push_back(std::move(item));
            }
            const json body{{"chat_id", chat_id}, {"media", media}};
            answer = read(files.empty() ? call(token, "sendMediaGroup", body)
                                        : call_with_files(token, "sendMediaGroup", body, files));
        }
        Publication p;
        if (answer.failure) {
            p.failure = std::move(answer.failure);
            return p;
        }
        // An album is several messages: its id lists them all (the caption's first), so that
        // unpublishing deletes every photo.
        const json sent = answer.body.is_array() ? answer.body : json::array({answer.body});
        for (const auto& m : sent) {
            const auto id = id_of(m, "message_id");
            if (id.empty()) {
                p.message_id.clear();
                break;
            }
            p.message_id += (p.message_id.empty() ? "" : ",") + id;
        }
        if (p.message_id.empty()) {
            p.failure = PlatformFailure{FailureKind::unknown_outcome,
                                        "Telegram accepted the message without a message id",
                                        std::nullopt, 200, ""};
            return p;
        }
        const std::string first = p.message_id.substr(0, p.message_id.find(','));
        if (!target.identity.handle.empty())
            p.url = "https://t.me/" + target.identity.handle + "/" + first;
        else if (chat_id.starts_with("-100"))
            p.url = "https://t.me/c/" + chat_id.substr(4) + "/" + first;
        return p;
    }

    // A message sent with photos or documents carries its text as the caption; an album's first
    // message is the one holding it.
    MessageChange edit(const Target& target, const std::string& external_id,
                       const Message& message) override {
        const auto ids = message_ids(external_id);
        if (!ids) return {bad_id(external_id)};
        const bool caption = !message.image_urls.empty();
        json body{{"chat_id", target.identity.external_id}, {"message_id", ids->front()}};
        body[caption ? "caption" : "text"] = message.text;
        // Telegram refuses an edit to the text the message already has; that text is the goal.
        return change_unless(read(call(target.credentials.at("bot_token"),
                                       caption ? "editMessageCaption" : "editMessageText", body)),
                             "message is not modified");
    }

    MessageChange remove(const Target& target, const std::string& external_id) override {
        const auto ids = message_ids(external_id);
        if (!ids) return {bad_id(external_id)};
        const auto& token = target.credentials.at("bot_token");
        if (ids->size() > 1)
            return change_unless(
                read(call(token, "deleteMessages",
                          {{"chat_id", target.identity.external_id}, {"message_ids", *ids}})),
                "message to delete not found");
        return change_unless(
            read(call(token, "deleteMessage",
                      {{"chat_id", target.identity.external_id}, {"message_id", ids->front()}})),
            "message to delete not found");
    }

  private:
    // The change's outcome, where a 400 naming `done` means the message already is as wanted.
    static MessageChange change_unless(const Answer& answer, std::string_view done) {
        if (!answer.failure) return {};
        const auto& f = *answer.failure;
        if (f.http_status == 400 && f.reason.find(done) != std::string::npos) return {};
        return {f};
    }

    // The message ids publish() stored: one, or an album's comma-separated (at most 10).
    static std::optional<std::vector<long long>> message_ids(std::string_view external_id) {
        std::vector<long long> ids;
        for (;;) {
            const auto comma = external_id.find(',');
            const auto id = external_id.substr(0, comma);
            if (id.empty() || !all_digits(id) || id.size() > 18 || ids.size() == 10)
                return std::nullopt;
            ids.push_back(std::stoll(std::string(id)));
            if (comma == std::string_view::npos) return ids;
            external_id.remove_prefix(comma + 1);
        }
    }

    static PlatformFailure bad_id(const std::string& external_id) {
        return PlatformFailure{FailureKind::refused,
                               "'" + external_id + "' is not a Telegram message id", std::nullopt,
                               0, ""};
    }

    http::Response call(const std::string& token, const char* method, const json& body) {
        return api_.send("POST", "/bot" + token + "/" + method, {}, body);
    }

    // The call as multipart/form-data: each member of `body` a field (strings as they are, the
    // rest as JSON, as the Bot API reads form fields) and each upload a file part.
    http::Response call_with_files(
        const std::string& token, const char* method, const json& body,
        const std::vector<std::pair<std::string, const Upload*>>& files) {
        http::Multipart form;
        for (const auto& [name, value] : body.items())
            form.field(name, value.is_string() ? value.get<std::string>() : value.dump());
        for (const auto& [name, file] : files)
            form.file(name, file->filename, file->content_type, file->bytes);
        const auto content_type = form.content_type();
        return api_.send("POST", "/bot" + token + "/" + method, {}, content_type,
                         std::move(form).finish());
    }

    // Why the bot cannot post in the chat, if it cannot.
    static std::optional<std::string> posting_refusal(const std::string& chat_type,
                                                      const std::string& status) {
        if (status == "left" || status == "kicked") return "the bot is not a member of this chat";
        if (chat_type == "channel" && status != "administrator" && status != "creator")
            return "the bot must be an administrator of this channel to post";
        return std::nullopt;
    }

    PlatformApi api_;
};

}  // namespace

bool is_bot_token(std::string_view text) {
    const auto colon = text.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon > 20) return false;
    const auto secret = text.substr(colon + 1);
    return all_digits(text.substr(0, colon)) && secret.size() >= 30 && secret.size() <= 100 &&
           std::all_of(secret.begin(), secret.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
           });
}

std::optional<std::string> parse_chat(std::string_view text) {
    if (text.starts_with("@")) {
        if (is_username(text.substr(1))) return std::string(text);
        return std::nullopt;
    }
    for (std::string_view prefix :
         {"https://t.me/", "http://t.me/", "t.me/", "https://telegram.me/", "http://telegram.me/",
          "telegram.me/"}) {
        if (text.starts_with(prefix)) {
            auto name = text.substr(prefix.size());
            if (name.ends_with("/")) name.remove_suffix(1);
            if (is_username(name)) return "@" + std::string(name);
            return std::nullopt;
        }
    }
    const auto digits = text.starts_with("-") ? text.substr(1) : text;
    if (all_digits(digits) && digits.size() <= 20) return std::string(text);
    return std::nullopt;
}

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<TelegramConnector>(settings, http);
}

}  // namespace squawk::social::telegram
