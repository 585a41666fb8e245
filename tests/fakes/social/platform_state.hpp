// What the fake social platforms know (bots, chats, webhooks, channels, phone numbers), the
// programmed failures and the record of every call, shared by the per-platform handlers.
#pragma once

#include "tests/fakes/loopback_http.hpp"

#include <nlohmann/json.hpp>

#include <deque>
#include <map>
#include <optional>
#include <string>

namespace squawk::fakes::social {

struct State {
    nlohmann::json telegram_bots = nlohmann::json::object();  // token -> {id, username, ...}
    nlohmann::json telegram_chats =
        nlohmann::json::array();  // {id, type, title, username, bot_status}
    nlohmann::json discord_webhooks =
        nlohmann::json::object();  // "id/token" -> {id, name, channel_id, guild_id}
    nlohmann::json discord_channels =
        nlohmann::json::object();  // id -> {id, name, guild_id, bot_tokens[]}
    // "channel/nonce" -> the message created with that nonce (enforce_nonce).
    nlohmann::json discord_nonces = nlohmann::json::object();
    nlohmann::json whatsapp_phones =
        nlohmann::json::object();  // id -> {id, waba_id, display_phone_number, verified_name,
                                   // tokens[]}
    // channel id -> messages posted there (by bots, webhooks or natively), oldest first.
    nlohmann::json discord_messages = nlohmann::json::object();
    // Discord message id -> the bot token that sent it (a bot edits only its own messages).
    std::map<std::string, std::string> discord_bot_authors;
    // chat id -> messages bots sent there, oldest first ({message_id, text or caption, ...}).
    nlohmann::json telegram_messages = nlohmann::json::object();
    // Programmed answers consumed in order by calls whose path contains the key.
    std::map<std::string, std::deque<nlohmann::json>> programs;
    nlohmann::json calls = nlohmann::json::array();
    long long next_message_id = 1000;
};

State& state();

// An answer from a JSON body.
HttpAnswer json_answer(int status, const nlohmann::json& body);
// The programmed answer for `request`, if one is waiting. {"delay_ms": n} alone delays the
// normal answer; with "status" it replaces it; "reset" drops the connection.
std::optional<nlohmann::json> take_program(const HttpRequest& request);

// A message a person posts (or edits, when `id` is given) in the Discord client, outside any API
// call: {channel_id, content, id?}. Returns the message.
nlohmann::json discord_native_message(const nlohmann::json& body);

// A multipart/form-data body: its text fields, and its files by part name as {name, filename,
// content_type, bytes} (the size; the content is not kept).
struct Form {
    std::map<std::string, std::string> fields;
    nlohmann::json files = nlohmann::json::object();
};
// The form `request` carries; nothing unless it is well-formed multipart/form-data.
std::optional<Form> parse_form(const HttpRequest& request);

// Per platform: the answer to a call under its base path (already stripped).
HttpAnswer telegram(const HttpRequest& request, const std::string& path);
HttpAnswer discord(const HttpRequest& request, const std::string& path);
HttpAnswer whatsapp(const HttpRequest& request, const std::string& path);
// The fake media host under /media/ (media_host.cpp).
HttpAnswer media(const HttpRequest& request);

}  // namespace squawk::fakes::social
