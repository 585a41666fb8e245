// The fake Telegram Bot API: /bot<token>/<method> (send, edit, delete) with {ok, result} answers
// and {ok: false, error_code, description} errors (core.telegram.org/bots/api); JSON bodies or
// multipart/form-data uploads, with the Bot API's limits on files by URL and uploaded.
#include "tests/fakes/platforms/fake_platform.hpp"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <vector>

namespace squawk::fakes::platforms::telegram {
namespace {

using nlohmann::json;

struct State {
    json bots = json::object();  // token -> {id, username, ...}
    json chats = json::array();  // {id, type, title, username, bot_status}
    // chat id -> messages bots sent there, oldest first ({message_id, text or caption, ...}).
    json messages = json::object();
};

State& state() {
    return fake_state<State>();
}

HttpAnswer error(int code, const std::string& description) {
    return json_answer(code, {{"ok", false}, {"error_code", code}, {"description", description}});
}

HttpAnswer result(const json& value) {
    return json_answer(200, {{"ok", true}, {"result", value}});
}

// The body of a call sent as a form: its fields, with those the Bot API reads as JSON-serialized
// parsed, and the uploaded files under "_files".
json form_body(const Form& form) {
    json body = json::object();
    for (const auto& [name, value] : form.fields)
        body[name] = name == "media" ? json::parse(value, nullptr, false) : json(value);
    body["_files"] = form.files;
    return body;
}

// A query parameter of `url` as the fake media host reads it ("" when absent), '%2F' decoded.
std::string url_query(const std::string& url, const std::string& name) {
    const auto question = url.find('?');
    if (question == std::string::npos) return {};
    const std::string query = "&" + url.substr(question + 1);
    const auto at = query.find("&" + name + "=");
    if (at == std::string::npos) return {};
    const auto start = at + name.size() + 2;
    std::string value = query.substr(start, query.find('&', start) - start);
    for (auto pos = value.find("%2F"); pos != std::string::npos; pos = value.find("%2F"))
        value.replace(pos, 3, "/");
    return value;
}

// What a photo or document input names: {source: upload|url|file_id, content_type, bytes, ...};
// nothing when it is missing or attaches a part the request does not have. Telegram fetches a URL
// itself; here the fake media host's query (or the path's extension) says what it would find.
std::optional<json> input_file(const json& value, const json& body) {
    if (!value.is_string() || value.get<std::string>().empty()) return std::nullopt;
    const std::string text = value.get<std::string>();
    const json files = body.value("_files", json::object());
    if (text.starts_with("attach://")) {
        const auto name = text.substr(9);
        if (!files.contains(name)) return std::nullopt;
        json f = files[name];
        f["source"] = "upload";
        return f;
    }
    if (text.starts_with("http://") || text.starts_with("https://")) {
        std::string type = url_query(text, "type");
        const auto path = text.substr(0, text.find('?'));
        if (type.empty() && path.ends_with(".gif")) type = "image/gif";
        if (type.empty() && path.ends_with(".pdf")) type = "application/pdf";
        if (type.empty() && path.ends_with(".zip")) type = "application/zip";
        return json{{"source", "url"},
                    {"url", text},
                    {"content_type", type},
                    {"bytes", std::atoll(url_query(text, "bytes").c_str())}};
    }
    return json{{"source", "file_id"}, {"file_id", text}};
}

// The file of sendPhoto's `photo` or sendDocument's `document`: a part of that name, or the
// field's URL, file_id or attach://.
std::optional<json> single_file(const json& body, const std::string& field) {
    const json files = body.value("_files", json::object());
    if (files.contains(field)) {
        json f = files[field];
        f["source"] = "upload";
        return f;
    }
    return input_file(body.value(field, json()), body);
}

// Telegram's refusal of `file` as a photo or document (`kind`), if it refuses: photos up to 5 MB
// by URL and 10 MB uploaded; documents by URL only GIF, PDF or ZIP up to 20 MB, uploaded up to
// 50 MB.
std::optional<HttpAnswer> refused_file(const std::string& kind, const json& file) {
    const auto source = file.value("source", "");
    const long long bytes = file.value("bytes", 0LL);
    if (kind == "photo") {
        if (source == "url" && bytes > 5'000'000)
            return error(400, "Bad Request: wrong file identifier/HTTP URL specified");
        if (source == "upload" && bytes > 10'000'000)
            return error(400, "Bad Request: PHOTO_INVALID_DIMENSIONS");
        return std::nullopt;
    }
    if (source == "url") {
        const auto type = file.value("content_type", "");
        if (type != "image/gif" && type != "application/pdf" && type != "application/zip")
            return error(400, "Bad Request: wrong type of the web page content");
        if (bytes > 20'000'000) return error(400, "Bad Request: failed to get HTTP URL content");
    }
    if (source == "upload" && bytes > 50'000'000) return error(413, "Request Entity Too Large");
    return std::nullopt;
}

// How a sent message describes its file.
json sent_file(const std::string& kind, long long id, const json& file) {
    json out{{"file_id", kind + "-" + std::to_string(id)}, {"file_size", file.value("bytes", 0LL)}};
    if (file.contains("url")) out["url"] = file["url"];
    if (file.contains("filename")) out["file_name"] = file["filename"];
    if (file.contains("file_id")) out["file_id"] = file["file_id"];
    return out;
}

json* find_chat(const json& chat_id) {
    const std::string wanted = chat_id.is_number_integer()
                                   ? std::to_string(chat_id.get<long long>())
                               : chat_id.is_string() ? chat_id.get<std::string>()
                                                     : "";
    for (auto& chat : state().chats) {
        if (std::to_string(chat.value("id", 0LL)) == wanted) return &chat;
        if (chat.contains("username") && "@" + chat.value("username", "") == wanted) return &chat;
    }
    return nullptr;
}

json public_chat(const json& chat) {
    json out = chat;
    out.erase("bot_status");
    return out;
}

json message(const json& chat) {
    return {{"message_id", next_message_id()},
            {"chat", public_chat(chat)},
            {"date", static_cast<long long>(std::time(nullptr))}};
}

json& messages_of(const json& chat) {
    return state().messages[std::to_string(chat.value("id", 0LL))];
}

HttpAnswer sent(const json& chat, const json& m) {
    messages_of(chat).push_back(m);
    publish_log("telegram", m.value("text", m.value("caption", "")));
    return result(m);
}

json* find_message(const json& chat, const json& message_id) {
    if (!message_id.is_number_integer()) return nullptr;
    for (auto& m : messages_of(chat))
        if (m["message_id"] == message_id) return &m;
    return nullptr;
}

// editMessageText (`field` "text") and editMessageCaption ("caption"), with the Bot API's errors.
HttpAnswer edit(const json& chat, const json& body, const std::string& field) {
    json* m = find_message(chat, body.value("message_id", json()));
    if (!m) return error(400, "Bad Request: message to edit not found");
    const std::string text = body.value(field, "");
    if (field == "text" && !m->contains("text"))
        return error(400, "Bad Request: there is no text in the message to edit");
    if (field == "caption" && !m->contains("photo") && !m->contains("document"))
        return error(400, "Bad Request: there is no caption in the message to edit");
    if (field == "text" && text.empty()) return error(400, "Bad Request: message text is empty");
    if (m->value(field, "") == text)
        return error(400,
                     "Bad Request: message is not modified: specified new message content and "
                     "reply markup are exactly the same as a current content and reply markup "
                     "of the message");
    (*m)[field] = text;
    (*m)["edit_date"] = static_cast<long long>(std::time(nullptr));
    return result(*m);
}

HttpAnswer remove(const json& chat, const json& body) {
    auto& all = messages_of(chat);
    const json id = body.value("message_id", json());
    const auto found =
        std::find_if(all.begin(), all.end(), [&](const json& m) { return m["message_id"] == id; });
    if (found == all.end()) return error(400, "Bad Request: message to delete not found");
    all.erase(found);
    return result(true);
}

// deleteMessages: 1 to 100 ids; ids not found are skipped, as the Bot API documents.
HttpAnswer remove_many(const json& chat, const json& body) {
    const json ids = body.value("message_ids", json());
    if (!ids.is_array() || ids.empty() || ids.size() > 100)
        return error(400, "Bad Request: message identifiers are not specified");
    auto& all = messages_of(chat);
    for (const auto& id : ids)
        all.erase(std::remove_if(all.begin(), all.end(),
                                 [&](const json& m) { return m["message_id"] == id; }),
                  all.end());
    return result(true);
}

HttpAnswer serve(const HttpRequest& request, const std::string& path) {
    // path: /bot<token>/<method>
    if (!path.starts_with("/bot")) return error(404, "Not Found");
    const auto slash = path.find('/', 4);
    if (slash == std::string::npos) return error(404, "Not Found");
    const std::string token = path.substr(4, slash - 4);
    const std::string method = path.substr(slash + 1);
    auto& s = state();
    if (!s.bots.contains(token)) return error(401, "Unauthorized");
    const json& bot = s.bots[token];
    const auto form = parse_form(request);
    const json body = form                   ? form_body(*form)
                      : request.body.empty() ? json::object()
                                             : json::parse(request.body, nullptr, false);
    if (!body.is_object()) return error(400, "Bad Request: can't parse JSON object");
    if (method == "getMe") return result(bot);
    json* chat = find_chat(body.value("chat_id", json()));
    if (method == "getChat") {
        if (!chat) return error(400, "Bad Request: chat not found");
        return result(public_chat(*chat));
    }
    if (method == "getChatMember") {
        if (!chat) return error(400, "Bad Request: chat not found");
        return result({{"status", chat->value("bot_status", "administrator")}, {"user", bot}});
    }
    if (!chat) return error(400, "Bad Request: chat not found");
    if (method == "sendMessage") {
        const std::string text = body.value("text", "");
        if (text.empty()) return error(400, "Bad Request: message text is empty");
        if (text.size() > 4096 * 4) return error(400, "Bad Request: message is too long");
        json m = message(*chat);
        m["text"] = text;
        return sent(*chat, m);
    }
    if (method == "sendPhoto" || method == "sendDocument") {
        const std::string kind = method == "sendPhoto" ? "photo" : "document";
        const auto file = single_file(body, kind);
        if (!file) return error(400, "Bad Request: there is no " + kind + " in the request");
        if (auto refusal = refused_file(kind, *file)) return *refusal;
        json m = message(*chat);
        const json described = sent_file(kind, m["message_id"].get<long long>(), *file);
        m[kind] = kind == "photo" ? json::array({described}) : described;
        if (body.contains("caption")) m["caption"] = body["caption"];
        return sent(*chat, m);
    }
    if (method == "sendMediaGroup") {
        const json media = body.value("media", json::array());
        if (!media.is_array() || media.size() < 2 || media.size() > 10)
            return error(400, "Bad Request: wrong number of media in the album");
        // Documents make an album of their own: they do not mix with photos or videos.
        size_t documents = 0;
        for (const auto& item : media)
            if (item.is_object() && item.value("type", "") == "document") ++documents;
        if (documents != 0 && documents != media.size())
            return error(400, "Bad Request: document can't be mixed with other media types");
        const std::string kind = documents ? "document" : "photo";
        std::vector<json> files;
        for (size_t i = 0; i < media.size(); ++i) {
            const auto file = media[i].is_object()
                                  ? input_file(media[i].value("media", json()), body)
                                  : std::nullopt;
            if (!file)
                return error(400, "Bad Request: failed to send message #" + std::to_string(i + 1) +
                                      " with the error message \"wrong file identifier/HTTP URL "
                                      "specified\"");
            if (auto refusal = refused_file(kind, *file)) return *refusal;
            files.push_back(*file);
        }
        json out = json::array();
        for (size_t i = 0; i < media.size(); ++i) {
            json m = message(*chat);
            const json described = sent_file(kind, m["message_id"].get<long long>(), files[i]);
            m[kind] = documents ? described : json::array({described});
            if (media[i].contains("caption")) m["caption"] = media[i]["caption"];
            messages_of(*chat).push_back(m);
            publish_log("telegram", m.value("caption", ""));
            out.push_back(m);
        }
        return result(out);
    }
    if (method == "editMessageText") return edit(*chat, body, "text");
    if (method == "editMessageCaption") return edit(*chat, body, "caption");
    if (method == "deleteMessage") return remove(*chat, body);
    if (method == "deleteMessages") return remove_many(*chat, body);
    return error(404, "Not Found");
}

// bot {token, bot}: a bot whose token is valid; chat {chat}: a chat with the bot's status there.
std::optional<HttpAnswer> control(const std::string& action, const json& body) {
    if (action == "bot")
        state().bots[body.at("token").get<std::string>()] = body.at("bot");
    else if (action == "chat")
        state().chats.push_back(body.at("chat"));
    else
        return std::nullopt;
    return json_answer(200, json::object());
}

void revoke(const std::string& token) {
    state().bots.erase(token);
}

json messages() {
    return state().messages;
}

constexpr FakePlatform kFake{"telegram", &serve, &control, &revoke, &messages, &reset_state<State>};
const FakeRegistration kRegistration(kFake);

}  // namespace
}  // namespace squawk::fakes::platforms::telegram
