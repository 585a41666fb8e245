// The fake Telegram Bot API: /bot<token>/<method> (send, edit, delete) with {ok, result} answers
// and {ok: false, error_code, description} errors (core.telegram.org/bots/api).
#include "tests/fakes/social/platform_state.hpp"

#include <algorithm>
#include <ctime>

namespace squawk::fakes::social {
namespace {

using nlohmann::json;

HttpAnswer error(int code, const std::string& description) {
    return json_answer(code, {{"ok", false}, {"error_code", code}, {"description", description}});
}

HttpAnswer result(const json& value) {
    return json_answer(200, {{"ok", true}, {"result", value}});
}

json* find_chat(const json& chat_id) {
    const std::string wanted = chat_id.is_number_integer()
                                   ? std::to_string(chat_id.get<long long>())
                               : chat_id.is_string() ? chat_id.get<std::string>()
                                                     : "";
    for (auto& chat : state().telegram_chats) {
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
    return {{"message_id", ++state().next_message_id},
            {"chat", public_chat(chat)},
            {"date", static_cast<long long>(std::time(nullptr))}};
}

json& messages_of(const json& chat) {
    return state().telegram_messages[std::to_string(chat.value("id", 0LL))];
}

HttpAnswer sent(const json& chat, const json& m) {
    messages_of(chat).push_back(m);
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

}  // namespace

HttpAnswer telegram(const HttpRequest& request, const std::string& path) {
    // path: /bot<token>/<method>
    if (!path.starts_with("/bot")) return error(404, "Not Found");
    const auto slash = path.find('/', 4);
    if (slash == std::string::npos) return error(404, "Not Found");
    const std::string token = path.substr(4, slash - 4);
    const std::string method = path.substr(slash + 1);
    auto& s = state();
    if (!s.telegram_bots.contains(token)) return error(401, "Unauthorized");
    const json& bot = s.telegram_bots[token];
    const json body =
        request.body.empty() ? json::object() : json::parse(request.body, nullptr, false);
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
    if (method == "sendPhoto") {
        if (body.value("photo", "").empty())
            return error(400, "Bad Request: there is no photo in the request");
        json m = message(*chat);
        m["photo"] = json::array({{{"file_id", "photo-" + std::to_string(s.next_message_id)}}});
        if (body.contains("caption")) m["caption"] = body["caption"];
        return sent(*chat, m);
    }
    if (method == "sendDocument") {
        if (body.value("document", "").empty())
            return error(400, "Bad Request: there is no document in the request");
        json m = message(*chat);
        m["document"] = {{"file_id", "document-" + std::to_string(s.next_message_id)},
                         {"url", body["document"]}};
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
        json out = json::array();
        for (size_t i = 0; i < media.size(); ++i) {
            json m = message(*chat);
            const std::string file = documents ? "document" : "photo";
            const json file_id = {{"file_id", file + "-" + std::to_string(s.next_message_id)}};
            if (documents)
                m["document"] = {{"file_id", file_id["file_id"]},
                                 {"url", media[i].value("media", "")}};
            else
                m["photo"] = json::array({file_id});
            if (media[i].is_object() && media[i].contains("caption"))
                m["caption"] = media[i]["caption"];
            messages_of(*chat).push_back(m);
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

}  // namespace squawk::fakes::social
