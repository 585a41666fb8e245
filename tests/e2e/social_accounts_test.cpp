// Social account routes end to end against the fake platforms: connect verified or refused,
// credentials sealed and never returned, listing, health after a revoked token, rename, move with
// its scope rule, disconnect, account groups and their limits, tenancy, and the rate tier.
#include "common/core/crypto/crypto.hpp"
#include "common/core/fs/work_files.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

using namespace squawk::testing;

TEST_CASE_METHOD(
    SocialApi,
    "connecting Telegram verifies with the Bot API, seals the token and never returns it",
    "[e2e][social]") {
    const auto token = telegram_channel(fake, -1001000000001LL, "squawk_one");
    const auto account = connect_telegram(stack, key, token, "@squawk_one");
    CHECK(account["platform"] == "telegram");
    CHECK(account["external_id"] == "-1001000000001");
    CHECK(account["display_name"] == "squawk_one news");
    CHECK(account["token_valid"] == true);
    CHECK(account.dump().find(token) == std::string::npos);

    const auto sealed = stack.db().run([&](squawk::db::Session& s) {
        return s
            .query_one("SELECT credentials_enc FROM social_accounts WHERE public_id = ?",
                       {account["id"].get<std::string>()})
            ->text(0);
    });
    CHECK(sealed.find(token) == std::string::npos);
    CHECK(sealed.find(token.substr(token.find(':') + 1)) == std::string::npos);

    const auto listed = stack.request("GET", "/v1/social/accounts", nullptr, key);
    check_success_envelope(listed, 200);
    CHECK(listed.body.find(token) == std::string::npos);
    CHECK(listed.json["pagination"]["total"] == 1);
    const std::string log = squawk::fs::read_file(stack.dir() + "/api.log").value_or("");
    CHECK(log.find(token.substr(token.find(':') + 1)) == std::string::npos);
}

TEST_CASE_METHOD(
    SocialApi,
    "a refused connect is 422 naming the field and the platform's reason, and nothing is stored",
    "[e2e][social]") {
    const auto bad_token =
        stack.request("POST", "/v1/social/connect/telegram",
                      {{"bot_token", random_telegram_token(42)}, {"chat", "@nobody_chat"}}, key);
    check_error_envelope(bad_token, 422, "VALIDATION_ERROR");
    CHECK(bad_token.json["error"]["details"]["fields"]["bot_token"] ==
          "Telegram refused: Unauthorized");
    const auto token = fake.add_telegram_bot(43, "lonely_bot");
    const auto no_chat = stack.request("POST", "/v1/social/connect/telegram",
                                       {{"bot_token", token}, {"chat", "@nobody_chat"}}, key);
    check_error_envelope(no_chat, 422, "VALIDATION_ERROR");
    CHECK(no_chat.json["error"]["details"]["fields"]["chat"] ==
          "Telegram refused: Bad Request: chat not found");
    CHECK(stack.count("SELECT COUNT(*) FROM social_accounts") == 0);
}

TEST_CASE_METHOD(SocialApi,
                 "bad connect input gets one 422 naming every bad field, before any platform call",
                 "[e2e][social]") {
    struct Case {
        std::string path;
        nlohmann::json body;
        std::vector<std::string> fields;
    };
    const std::vector<Case> cases = {
        {"telegram", nlohmann::json::object(), {"bot_token", "chat"}},
        {"telegram", {{"bot_token", "nope"}, {"chat", "no spaces allowed"}}, {"bot_token", "chat"}},
        {"telegram", {{"bot_token", 5}, {"chat", true}}, {"bot_token", "chat"}},
        {"telegram",
         {{"bot_token", std::string(3000, 'a')}, {"chat", "@valid_name"}},
         {"bot_token"}},
        {"telegram",
         {{"bot_token", "1:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
          {"chat", "@ok_name"},
          {"extra", 1}},
         {"extra"}},
        {"discord", nlohmann::json::object(), {"webhook_url"}},
        {"discord",
         {{"webhook_url", "https://evil.example/api/webhooks/123456789012345678/tok"}},
         {"webhook_url"}},
        {"discord", {{"bot_token", "abc"}}, {"channel_id"}},
        {"discord", {{"bot_token", "abc"}, {"channel_id", "12"}}, {"channel_id"}},
        {"whatsapp", nlohmann::json::object(), {"waba_id", "phone_number_id", "access_token"}},
        {"whatsapp",
         {{"waba_id", "x1"}, {"phone_number_id", "12a"}, {"access_token", "has space"}},
         {"waba_id", "phone_number_id", "access_token"}},
    };
    for (const auto& c : cases) {
        INFO(c.path << " " << c.body.dump());
        const auto r = stack.request("POST", "/v1/social/connect/" + c.path, c.body, key);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        for (const auto& field : c.fields)
            CHECK(r.json["error"]["details"]["fields"].contains(field));
    }
    CHECK(fake.calls().empty());
    CHECK(stack.count("SELECT COUNT(*) FROM social_accounts") == 0);
}

TEST_CASE_METHOD(SocialApi,
                 "connect takes a platform's alias as the platform, and an unknown platform is 404",
                 "[e2e][social]") {
    const auto unknown =
        stack.request("POST", "/v1/social/connect/myspace", {{"handle", "@squawk"}}, key);
    check_not_found(unknown);

    const auto token = telegram_channel(fake, -1001000000009LL, "squawk_alias");
    const auto by_alias = stack.request("POST", "/v1/social/connect/tg",
                                        {{"bot_token", token}, {"chat", "@squawk_alias"}}, key);
    check_success_envelope(by_alias, 201);
    CHECK(by_alias.json["data"]["platform"] == "telegram");
    CHECK(stack.count("SELECT COUNT(*) FROM social_accounts WHERE platform = 'telegram'") == 1);
}

TEST_CASE_METHOD(SocialApi,
                 "a platform that does not answer is a bare 502, one that fails is 422 "
                 "PLATFORM_UPSTREAM_ERROR and a platform rate limit is 429",
                 "[e2e][social]") {
    const auto token = telegram_channel(fake, -1001000000002LL, "squawk_two");
    fake.program(
        "/getMe",
        {{{"status", 200}, {"delay_ms", 3000}},
         {{"status", 503},
          {"body", {{"ok", false}, {"error_code", 503}, {"description", "Service Unavailable"}}}},
         {{"status", 429},
          {"body",
           {{"ok", false},
            {"error_code", 429},
            {"description", "Too Many Requests"},
            {"parameters", {{"retry_after", 9}}}}}}});
    const auto silent = stack.request("POST", "/v1/social/connect/telegram",
                                      {{"bot_token", token}, {"chat", "@squawk_two"}}, key);
    // No answer within the platform timeout: a bare 502 (spec 7), still carrying the request id.
    CHECK(silent.status == 502);
    CHECK(silent.body.empty());
    CHECK_FALSE(silent.header("x-request-id").empty());
    const auto failing = stack.request("POST", "/v1/social/connect/telegram",
                                       {{"bot_token", token}, {"chat", "@squawk_two"}}, key);
    check_error_envelope(failing, 422, "PLATFORM_UPSTREAM_ERROR");
    const auto limited = stack.request("POST", "/v1/social/connect/telegram",
                                       {{"bot_token", token}, {"chat", "@squawk_two"}}, key);
    check_error_envelope(limited, 429, "PLATFORM_RATE_LIMITED");
    CHECK(limited.json["error"]["details"]["retry_after_seconds"] == 9);
    CHECK(stack.count("SELECT COUNT(*) FROM social_accounts") == 0);
}

TEST_CASE_METHOD(SocialApi,
                 "connecting the same chat again reconnects its account, which keeps its id and "
                 "takes the new token; after a disconnect the chat connects as a new account",
                 "[e2e][social]") {
    const auto token = telegram_channel(fake, -1001000000003LL, "squawk_three");
    const auto first = connect_telegram(stack, key, token, "@squawk_three");
    stack.db().run([](squawk::db::Session& s) {
        s.execute("UPDATE social_accounts SET token_valid = 0, last_error = 'Unauthorized'");
    });
    const auto again = stack.request("POST", "/v1/social/connect/telegram",
                                     {{"bot_token", token}, {"chat", "-1001000000003"}}, key);
    check_success_envelope(again, 200);
    CHECK(again.json["data"]["id"] == first["id"]);
    CHECK(again.json["data"]["token_valid"] == true);
    CHECK(again.json["data"]["last_error"].is_null());
    CHECK(stack.count("SELECT COUNT(*) FROM social_accounts") == 1);

    const auto gone = stack.request(
        "DELETE", "/v1/social/accounts/" + first["id"].get<std::string>(), nullptr, key);
    check_success_envelope(gone, 200);
    CHECK(stack.count("SELECT COUNT(*) FROM social_accounts WHERE credentials_enc IS NOT NULL") ==
          0);
    CHECK(connect_telegram(stack, key, token, "@squawk_three")["id"] != first["id"]);
}

TEST_CASE_METHOD(
    SocialApi,
    "accounts list by page and platform, and Discord and WhatsApp connect through their APIs",
    "[e2e][social]") {
    for (int i = 0; i < 3; ++i) {
        const std::string name = "squawk_list" + std::to_string(i);
        connect_telegram(stack, key, telegram_channel(fake, -1001000000100LL - i, name),
                         "@" + name);
    }
    fake.add_discord_webhook("523456789012345678", "AbCdEf-ghIjKlMnOpQrStUvWxYz_0123456789",
                             {{"id", "523456789012345678"},
                              {"name", "Announcements"},
                              {"channel_id", "623456789012345678"},
                              {"guild_id", "723456789012345678"}});
    const auto discord = stack.request("POST", "/v1/social/connect/discord",
                                       {{"webhook_url",
                                         "https://discord.com/api/webhooks/523456789012345678/"
                                         "AbCdEf-ghIjKlMnOpQrStUvWxYz_0123456789"}},
                                       key);
    check_success_envelope(discord, 201);
    CHECK(discord.json["data"]["external_id"] == "623456789012345678");
    fake.add_whatsapp_phone({{"id", "2098765432"},
                             {"waba_id", "655000111"},
                             {"display_phone_number", "+1 555 0101"},
                             {"verified_name", "Squawk"}},
                            {"EAAG-token"});
    const auto whatsapp = stack.request("POST", "/v1/social/connect/whatsapp",
                                        {{"waba_id", "655000111"},
                                         {"phone_number_id", "2098765432"},
                                         {"access_token", "EAAG-token"}},
                                        key);
    check_success_envelope(whatsapp, 201);
    CHECK(whatsapp.body.find("EAAG-token") == std::string::npos);

    const auto page = stack.request("GET", "/v1/social/accounts?per_page=2&page=2", nullptr, key);
    check_success_envelope(page, 200);
    CHECK(page.json["pagination"]["total"] == 5);
    CHECK(page.json["data"].size() == 2);
    const auto only = stack.request("GET", "/v1/social/accounts?platform=telegram", nullptr, key);
    CHECK(only.json["pagination"]["total"] == 3);
    check_error_envelope(stack.request("GET", "/v1/social/accounts?platform=myspace", nullptr, key),
                         422, "VALIDATION_ERROR");
}

TEST_CASE_METHOD(
    SocialApi,
    "health re-checks tokens: a token the platform revoked shows invalid with its reason",
    "[e2e][social]") {
    const auto token = telegram_channel(fake, -1001000000004LL, "squawk_four");
    const auto account = connect_telegram(stack, key, token, "@squawk_four");
    const auto healthy = stack.request("GET", "/v1/social/accounts/health", nullptr, key);
    check_success_envelope(healthy, 200);
    CHECK(healthy.json["data"][0]["token_valid"] == true);
    fake.revoke(token);
    const auto revoked = stack.request("GET", "/v1/social/accounts/health", nullptr, key);
    check_success_envelope(revoked, 200);
    CHECK(revoked.json["data"][0]["id"] == account["id"]);
    CHECK(revoked.json["data"][0]["token_valid"] == false);
    CHECK(revoked.json["data"][0]["last_error"] == "Unauthorized");
    const auto listed = stack.request("GET", "/v1/social/accounts", nullptr, key);
    CHECK(listed.json["data"][0]["token_valid"] == false);
}

TEST_CASE_METHOD(
    SocialApi,
    "rename, move between profiles with social:write plus profiles:manage, and tenancy 404s",
    "[e2e][social]") {
    const auto token = telegram_channel(fake, -1001000000005LL, "squawk_five");
    const auto account = connect_telegram(stack, key, token, "@squawk_five");
    const std::string id = account["id"];

    const auto renamed = stack.request("PATCH", "/v1/social/accounts/" + id,
                                       {{"display_name", "Main channel"}}, key);
    check_success_envelope(renamed, 200);
    CHECK(renamed.json["data"]["display_name"] == "Main channel");
    check_error_envelope(
        stack.request("PATCH", "/v1/social/accounts/" + id, {{"display_name", ""}}, key), 422,
        "VALIDATION_ERROR");

    const auto profile = stack.request("POST", "/v1/profiles", {{"name", "Client"}}, key);
    check_success_envelope(profile, 201);
    const long long profile_id = profile.json["data"]["id"];
    const auto social_only =
        stack.create_key(stack.tenant().workspace_id, "live", "social:read,social:write");
    const auto refused = stack.request("POST", "/v1/social/accounts/" + id + "/move",
                                       {{"profile_id", profile_id}}, social_only);
    check_error_envelope(refused, 403, "INSUFFICIENT_SCOPE");
    CHECK(refused.json["error"]["details"]["required_scope"] == "profiles:manage");
    check_not_found(stack.request("POST", "/v1/social/accounts/" + id + "/move",
                                  {{"profile_id", 999999}}, key));
    const auto moved = stack.request("POST", "/v1/social/accounts/" + id + "/move",
                                     {{"profile_id", profile_id}}, key);
    check_success_envelope(moved, 200);
    CHECK(stack.request("GET", "/v1/social/accounts", nullptr, key).json["pagination"]["total"] ==
          0);
    const Headers in_profile{{"X-Profile-Id", std::to_string(profile_id)}};
    const auto there = stack.request("GET", "/v1/social/accounts", nullptr, key, in_profile);
    CHECK(there.json["pagination"]["total"] == 1);

    const auto other = stack.create_tenant("Other");
    for (const auto& [method, path] : std::vector<std::pair<std::string, std::string>>{
             {"PATCH", "/v1/social/accounts/" + id},
             {"DELETE", "/v1/social/accounts/" + id},
             {"POST", "/v1/social/accounts/" + id + "/move"}}) {
        INFO(method << " " << path);
        const nlohmann::json body = method == "PATCH"  ? nlohmann::json{{"display_name", "x"}}
                                    : method == "POST" ? nlohmann::json{{"profile_id", profile_id}}
                                                       : nlohmann::json();
        check_not_found(stack.request(method, path, body, other.live_key));
    }
    // The owner's own workspace no longer holds it either.
    check_not_found(stack.request("DELETE", "/v1/social/accounts/" + id, nullptr, key));
    check_success_envelope(
        stack.request("DELETE", "/v1/social/accounts/" + id, nullptr, key, in_profile), 200);
}

TEST_CASE_METHOD(
    SocialApi,
    "account groups: members must be the workspace's accounts, at most 100 per group and "
    "50 groups per workspace",
    "[e2e][social]") {
    const auto a = connect_telegram(
        stack, key, telegram_channel(fake, -1001000000006LL, "squawk_six"), "@squawk_six");
    const auto created = stack.request("POST", "/v1/social/account-groups",
                                       {{"name", "Everything"}, {"account_ids", {a["id"]}}}, key);
    check_success_envelope(created, 201);
    CHECK(created.json["data"]["account_ids"] == nlohmann::json::array({a["id"]}));
    const std::string group = created.json["data"]["id"];

    const auto unknown = stack.request("PATCH", "/v1/social/account-groups/" + group,
                                       {{"account_ids", {"acc_000000000000000000000000"}}}, key);
    check_error_envelope(unknown, 422, "VALIDATION_ERROR");
    CHECK(unknown.json["error"]["details"]["fields"].contains("account_ids"));
    nlohmann::json many = nlohmann::json::array();
    for (int i = 0; i < 101; ++i) many.push_back("acc_" + std::to_string(i));
    check_error_envelope(
        stack.request("PATCH", "/v1/social/account-groups/" + group, {{"account_ids", many}}, key),
        422, "VALIDATION_ERROR");
    const auto emptied = stack.request("PATCH", "/v1/social/account-groups/" + group,
                                       {{"account_ids", nlohmann::json::array()}}, key);
    check_success_envelope(emptied, 200);
    CHECK(emptied.json["data"]["account_ids"].empty());

    for (int i = 1; i < 50; ++i)
        check_success_envelope(stack.request("POST", "/v1/social/account-groups",
                                             {{"name", "g" + std::to_string(i)}}, key),
                               201);
    const auto full =
        stack.request("POST", "/v1/social/account-groups", {{"name", "one more"}}, key);
    check_error_envelope(full, 409, "CONFLICT");
    CHECK(full.json["error"]["details"]["limit"] == 50);
    const auto listed =
        stack.request("GET", "/v1/social/account-groups?per_page=100", nullptr, key);
    CHECK(listed.json["pagination"]["total"] == 50);

    const auto other = stack.create_tenant("Other");
    check_not_found(
        stack.request("GET", "/v1/social/account-groups/" + group, nullptr, other.live_key));
    check_success_envelope(
        stack.request("DELETE", "/v1/social/account-groups/" + group, nullptr, key), 200);
    check_not_found(stack.request("GET", "/v1/social/account-groups/" + group, nullptr, key));
}

TEST_CASE_METHOD(
    SocialApi,
    "the rate tier follows a connect at once: the third account lifts 60 to 600 a minute",
    "[e2e][social]") {
    for (int i = 0; i < 2; ++i) {
        const std::string name = "squawk_tier" + std::to_string(i);
        connect_telegram(stack, key, telegram_channel(fake, -1001000000200LL - i, name),
                         "@" + name);
    }
    CHECK(stack.request("GET", "/v1/me", nullptr, key).header("x-ratelimit-limit") == "60");
    connect_telegram(stack, key, telegram_channel(fake, -1001000000210LL, "squawk_tier2"),
                     "@squawk_tier2");
    CHECK(stack.request("GET", "/v1/me", nullptr, key).header("x-ratelimit-limit") == "600");
}
