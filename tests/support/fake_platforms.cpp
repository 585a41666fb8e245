#include "tests/support/fake_platforms.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/domain/social/connector.hpp"

#include <fstream>

namespace squawk::testing {

FakePlatforms::FakePlatforms()
    : server_("fake_social_platforms", {}),
      oauth_client_id_("squawk-" + crypto::random_token(9)),
      oauth_client_secret_(crypto::random_token(24)) {
    for (const auto& platform : social::registered_platforms())
        if (platform.connect_style == social::ConnectStyle::oauth)
            control_platform(
                std::string(platform.id), "oauth_client",
                {{"client_id", oauth_client_id_}, {"client_secret", oauth_client_secret_}});
}

std::string FakePlatforms::under_base_url(const std::string& platform, std::string_view url) const {
    if (url.empty()) return {};
    const size_t host = url.find("://");
    const size_t path = url.find('/', host == std::string_view::npos ? 0 : host + 3);
    return base_url(platform) +
           std::string(path == std::string_view::npos ? "/" : url.substr(path));
}

std::string FakePlatforms::authorize_url(const std::string& platform) const {
    const auto* factory = social::find_platform(platform);
    if (!factory) return {};
    return under_base_url(std::string(factory->id), factory->default_authorize_url);
}

std::string FakePlatforms::token_url(const std::string& platform) const {
    const auto* factory = social::find_platform(platform);
    if (!factory) return {};
    return under_base_url(std::string(factory->id), factory->default_token_url);
}

std::string FakePlatforms::upload_url(const std::string& platform) const {
    const auto* factory = social::find_platform(platform);
    if (!factory || factory->default_upload_url.empty()) return {};
    return base_url(std::string(factory->id)) + "/_upload";
}

std::string FakePlatforms::base_url(const std::string& platform) const {
    return server_.url("/" + platform);
}

std::string FakePlatforms::media_url(const std::string& name, const std::string& content_type,
                                     long long bytes, const std::string& extra_query) const {
    return server_.url("/media/" + name + "?type=" + content_type +
                       "&bytes=" + std::to_string(bytes) + extra_query);
}

std::string FakePlatforms::store_media_file(const std::string& name,
                                            const std::string& content_type,
                                            const std::string& bytes) {
    // Handed over as a file on this machine: a video past 100 MB sent as base64 inside JSON took
    // the fake longer to read than the control call waits on a loaded machine.
    const fs::ScratchDirectory folder("squawk-media-file-");
    const auto path = folder / "bytes";
    std::ofstream(path, std::ios::binary) << bytes;
    control("POST", "/_control/media/file",
            {{"name", name}, {"content_type", content_type}, {"path", path.string()}});
    return server_.url("/media/" + name);
}

std::string FakePlatforms::config() const {
    std::string out;
    for (const auto& platform : social::registered_platforms()) {
        const std::string section(platform.settings_section);
        out += "[social." + section + "]\napi_base_url = \"" + base_url(std::string(platform.id)) +
               "\"\ntimeout_ms = 2000\n";
        if (platform.connect_style == social::ConnectStyle::oauth)
            out += "client_id = \"" + oauth_client_id_ + "\"\nclient_secret = \"" +
                   oauth_client_secret_ + "\"\nauthorize_url = \"" +
                   authorize_url(std::string(platform.id)) + "\"\n";
        if (const auto token = token_url(std::string(platform.id)); !token.empty())
            out += "token_url = \"" + token + "\"\n";
        if (const auto upload = upload_url(std::string(platform.id)); !upload.empty())
            out += "upload_url = \"" + upload + "\"\n";
        out += "\n";
    }
    return out;
}

nlohmann::json FakePlatforms::control_platform(const std::string& platform,
                                               const std::string& action,
                                               const nlohmann::json& body) {
    return control("POST", "/_control/" + platform + "/" + action, body);
}

std::string FakePlatforms::add_telegram_bot(long long bot_id, const std::string& username) {
    const std::string token = random_telegram_token(bot_id);
    control_platform(
        "telegram", "bot",
        {{"token", token},
         {"bot",
          {{"id", bot_id}, {"is_bot", true}, {"first_name", username}, {"username", username}}}});
    return token;
}

void FakePlatforms::add_telegram_chat(const nlohmann::json& chat) {
    control_platform("telegram", "chat", {{"chat", chat}});
}

void FakePlatforms::add_discord_webhook(const std::string& id, const std::string& token,
                                        const nlohmann::json& webhook) {
    control_platform("discord", "webhook", {{"id", id}, {"token", token}, {"webhook", webhook}});
}

void FakePlatforms::add_discord_channel(const nlohmann::json& channel,
                                        const nlohmann::json& bot_tokens) {
    control_platform("discord", "channel", {{"channel", channel}, {"bot_tokens", bot_tokens}});
}

nlohmann::json FakePlatforms::messages() {
    return control("GET", "/_control/messages");
}

nlohmann::json FakePlatforms::publishes() {
    return control("GET", "/_control/publishes");
}

void FakePlatforms::clear_calls() {
    control("POST", "/_control/calls/clear", nlohmann::json::object());
}

void FakePlatforms::add_whatsapp_phone(const nlohmann::json& phone, const nlohmann::json& tokens) {
    control_platform("whatsapp", "phone", {{"phone", phone}, {"tokens", tokens}});
}

nlohmann::json FakePlatforms::post_discord_native(const std::string& channel_id,
                                                  const std::string& content,
                                                  const std::string& id) {
    nlohmann::json body = {{"channel_id", channel_id}, {"content", content}};
    if (!id.empty()) body["id"] = id;
    return control_platform("discord", "message", body);
}

void FakePlatforms::revoke(const std::string& token) {
    control("POST", "/_control/revoke", {{"token", token}});
}

void FakePlatforms::program(const std::string& match, const nlohmann::json& responses) {
    control("POST", "/_control/program", {{"match", match}, {"responses", responses}});
}

nlohmann::json FakePlatforms::calls(const std::string& match) {
    return control("GET", "/_control/calls" + (match.empty() ? "" : "?match=" + match));
}

std::string random_telegram_token(long long bot_id) {
    return std::to_string(bot_id) + ":" + crypto::random_token(27);
}

}  // namespace squawk::testing
