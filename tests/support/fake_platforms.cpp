#include "tests/support/fake_platforms.hpp"

#include "common/crypto/crypto.hpp"
#include "tests/support/test_database.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace squawk::testing {

FakePlatforms::FakePlatforms() {
    log_path_ = (std::filesystem::temp_directory_path() / (unique_name("fake_platforms") + ".log"))
                    .string();
    process_ = std::make_unique<ChildProcess>(
        std::vector<std::string>{ServerEnv::get().bin_dir + "/fake_social_platforms"}, log_path_);
    for (int i = 0; i < 500 && port_ == 0; ++i) {
        std::ifstream in(log_path_);
        std::string word;
        int port = 0;
        if (in >> word >> port && word == "port")
            port_ = port;
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (port_ == 0) throw std::runtime_error("the fake social platforms did not start");
    http_ = std::make_unique<HttpClient>("http://127.0.0.1:" + std::to_string(port_));
}

FakePlatforms::~FakePlatforms() {
    process_->stop(std::chrono::milliseconds(500));
    std::error_code ec;
    std::filesystem::remove(log_path_, ec);
}

std::string FakePlatforms::base_url(const std::string& platform) const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/" + platform;
}

std::string FakePlatforms::config() const {
    std::string out;
    for (const char* platform : {"telegram", "discord", "whatsapp"})
        out += std::string("[social.") + platform + "]\napi_base_url = \"" + base_url(platform) +
               "\"\ntimeout_ms = 2000\n\n";
    return out;
}

nlohmann::json FakePlatforms::control(const std::string& method, const std::string& path,
                                      const nlohmann::json& body) {
    const auto r = http_->send(
        method, path, body.is_null() ? std::nullopt : std::optional<std::string>(body.dump()),
        {{"Content-Type", "application/json"}});
    if (r.status != 200) throw std::runtime_error("fake platforms control call failed: " + path);
    return r.json;
}

std::string FakePlatforms::add_telegram_bot(long long bot_id, const std::string& username) {
    const std::string token = random_telegram_token(bot_id);
    control(
        "POST", "/_control/telegram/bot",
        {{"token", token},
         {"bot",
          {{"id", bot_id}, {"is_bot", true}, {"first_name", username}, {"username", username}}}});
    return token;
}

void FakePlatforms::add_telegram_chat(const nlohmann::json& chat) {
    control("POST", "/_control/telegram/chat", {{"chat", chat}});
}

void FakePlatforms::add_discord_webhook(const std::string& id, const std::string& token,
                                        const nlohmann::json& webhook) {
    control("POST", "/_control/discord/webhook",
            {{"id", id}, {"token", token}, {"webhook", webhook}});
}

void FakePlatforms::add_discord_channel(const nlohmann::json& channel,
                                        const nlohmann::json& bot_tokens) {
    control("POST", "/_control/discord/channel",
            {{"channel", channel}, {"bot_tokens", bot_tokens}});
}

void FakePlatforms::add_whatsapp_phone(const nlohmann::json& phone, const nlohmann::json& tokens) {
    control("POST", "/_control/whatsapp/phone", {{"phone", phone}, {"tokens", tokens}});
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
