// Connecting through a platform's OAuth consent page, from the outside, with X's fake: the
// authorize route answers the consent page's address (state, PKCE S256 challenge, the scopes
// posting needs), the platform's redirect to the callback records the account in the workspace
// that asked, a state serves once and expires, a second consent reconnects the same account (and
// mends one whose refresh X refused), and a denial, missing permissions or a deployment without
// the application are refused.
#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/account_repository.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/social_fixtures.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;
using nlohmann::json;

namespace {

// http://host:port/path?query split into the origin and the rest.
std::pair<std::string, std::string> split_url(const std::string& url) {
    const size_t path = url.find('/', url.find("://") + 3);
    return {url.substr(0, path), url.substr(path)};
}

// The query parameter `name` of `url`, decoded; "" when absent.
std::string query_value(const std::string& url, const std::string& name) {
    const size_t query = url.find('?');
    if (query == std::string::npos) return {};
    std::string_view rest = std::string_view(url).substr(query + 1);
    while (!rest.empty()) {
        const auto pair = rest.substr(0, rest.find('&'));
        if (pair.substr(0, pair.find('=')) == name)
            return squawk::http::percent_decode(pair.substr(pair.find('=') + 1), true).value_or("");
        rest = rest.size() > pair.size() ? rest.substr(pair.size() + 1) : std::string_view();
    }
    return {};
}

struct OAuthConnect : SocialApi {
    OAuthConnect() {
        fake.control_platform("x", "user",
                              {{"id", kUserId}, {"username", "squawkhq"}, {"name", "Squawk HQ"}});
    }

    // GET .../authorize for `key`; the answer's data.
    json authorize(const std::string& as_key) {
        const auto r = stack.request("GET", "/v1/social/connect/x/authorize", nullptr, as_key);
        REQUIRE(r.status == 200);
        return r.json["data"];
    }

    // Opens the consent page as the user's browser would; returns where it redirects.
    std::string consent(const std::string& authorization_url) {
        const auto [origin, path] = split_url(authorization_url);
        HttpClient browser(origin);
        const auto page = browser.send("GET", path, std::nullopt, {});
        REQUIRE(page.status == 302);
        return page.header("location");
    }

    // The browser following the platform's redirect to our callback (no key).
    HttpResponse callback(const std::string& redirect) {
        return stack.request("GET", stack.path_of(redirect), nullptr, "");
    }

    // The whole round trip for `as_key` with the user consenting as `consent_body` says.
    HttpResponse connect(const std::string& as_key, json consent_body = json::object()) {
        consent_body["user_id"] = kUserId;
        fake.control_platform("x", "next_consent", consent_body);
        return callback(consent(authorize(as_key)["authorization_url"]));
    }

    static constexpr const char* kUserId = "1590000000000000001";
};

}  // namespace

TEST_CASE_METHOD(OAuthConnect,
                 "authorize answers X's consent page with a state and a PKCE challenge and the "
                 "redirect back connects the account",
                 "[e2e][social][oauth]") {
    const auto start = authorize(key);
    const std::string url = start["authorization_url"];
    CHECK(url.rfind(fake.authorize_url("x"), 0) == 0);
    CHECK(query_value(url, "state") == start["state"]);
    CHECK(query_value(url, "code_challenge_method") == "S256");
    CHECK(query_value(url, "code_challenge").size() == 43);
    CHECK(query_value(url, "client_id") == fake.oauth_client_id());
    CHECK(query_value(url, "redirect_uri") ==
          stack.public_base_url() + "/social/connect/x/callback");
    CHECK(query_value(url, "scope") ==
          "tweet.read tweet.write users.read offline.access media.write tweet.moderate.write "
          "like.write");
    CHECK(start["platform"] == "x");

    fake.control_platform("x", "next_consent", {{"user_id", kUserId}});
    const auto connected = callback(consent(url));
    check_success_envelope(connected, 201);
    const auto& account = connected.json["data"];
    CHECK(account["platform"] == "x");
    CHECK(account["external_id"] == kUserId);
    CHECK(account["display_name"] == "Squawk HQ");
    CHECK(connected.body.find("access_token") == std::string::npos);

    const auto listed = stack.request("GET", "/v1/social/accounts?platform=x", nullptr, key);
    REQUIRE(listed.json["data"].size() == 1);
    CHECK(listed.json["data"][0]["id"] == account["id"]);
    // The state bound the account to the workspace that asked, not to whoever follows the link.
    const auto other = stack.create_tenant("bystander");
    CHECK(
        stack.request("GET", "/v1/social/accounts", nullptr, other.live_key).json["data"].empty());
}

TEST_CASE_METHOD(OAuthConnect,
                 "a state serves one redirect and a second consent reconnects the same account",
                 "[e2e][social][oauth]") {
    fake.control_platform("x", "next_consent", {{"user_id", kUserId}});
    const std::string redirect = consent(authorize(key)["authorization_url"]);
    const auto first = callback(redirect);
    REQUIRE(first.status == 201);

    const auto replayed = callback(redirect);
    check_error_envelope(replayed, 400, "INVALID_REQUEST");
    CHECK(replayed.json["error"]["details"]["parameter"] == "state");
    CHECK(replayed.json["error"]["details"]["reason"] == "unknown");

    const auto again = connect(key);
    check_success_envelope(again, 200);
    CHECK(again.json["data"]["id"] == first.json["data"]["id"]);
    CHECK(stack.request("GET", "/v1/social/accounts", nullptr, key).json["data"].size() == 1);
}

TEST_CASE_METHOD(OAuthConnect,
                 "a state issued for one platform is refused on another platform's callback, "
                 "and used up by the attempt",
                 "[e2e][social][oauth]") {
    fake.control_platform("x", "next_consent", {{"user_id", kUserId}});
    const std::string redirect = consent(authorize(key)["authorization_url"]);
    const std::string query = redirect.substr(redirect.find('?'));
    const auto foreign =
        stack.request("GET", "/v1/social/connect/linkedin/callback" + query, nullptr, "");
    check_error_envelope(foreign, 400, "INVALID_REQUEST");
    CHECK(foreign.json["error"]["details"]["parameter"] == "state");
    CHECK(foreign.json["error"]["details"]["reason"] == "unknown");
    check_error_envelope(callback(redirect), 400, "INVALID_REQUEST");
    CHECK(stack.request("GET", "/v1/social/accounts", nullptr, key).json["data"].empty());
}

TEST_CASE_METHOD(OAuthConnect,
                 "an account whose token refresh X refused must reconnect: health keeps saying "
                 "so while its access token still passes, posts to it are refused before "
                 "anything changes, and a new consent mends it",
                 "[e2e][social][oauth]") {
    const auto connected = connect(key);
    REQUIRE(connected.status == 201);
    const std::string id = connected.json["data"]["id"];
    CHECK(connected.json["data"]["reconnect_required"] == false);
    const auto scheduled = stack.request("POST", "/v1/social/posts/schedule",
                                         {{"content", "Before the refusal."},
                                          {"platforms", json::array({"x"})},
                                          {"scheduled_time", hours_from_now(2)}},
                                         key);
    REQUIRE(scheduled.status == 201);
    const std::string post_path =
        "/v1/social/posts/" + std::to_string(scheduled.json["data"]["id"].get<long long>());

    // As the sync pool leaves it when X answers a refresh with invalid_grant.
    const std::string reason =
        "X refused to refresh the token (invalid_grant); reconnect the account";
    stack.db().run([&](squawk::db::Session& s) {
        const auto row = s.query_one("SELECT id FROM social_accounts WHERE public_id = ?", {id});
        squawk::social::AccountRepository::require_reconnect(s, row->integer(0), reason);
    });
    for (int check = 0; check < 2; ++check) {
        const auto health = stack.request("GET", "/v1/social/accounts/health", nullptr, key);
        REQUIRE(health.status == 200);
        const auto& account = health.json["data"][0];
        CHECK(account["token_valid"] == false);
        CHECK(account["reconnect_required"] == true);
        CHECK(account["last_error"] == reason);
    }

    const auto refused = [&](const HttpResponse& r) {
        check_error_envelope(r, 403, "CONNECTION_SCOPE_MISSING");
        CHECK(r.json["error"]["details"]["reconnect_required"] == true);
        CHECK(r.json["error"]["details"]["account_ids"] == json::array({id}));
    };
    const json post = {{"content", "After the refusal."}, {"platforms", json::array({"x"})}};
    refused(stack.request("POST", "/v1/social/posts", post, key));
    const auto bulk =
        stack.request("POST", "/v1/social/posts/bulk", {{"posts", json::array({post})}}, key);
    refused(bulk);
    CHECK(bulk.json["error"]["details"]["index"] == 0);
    refused(stack.request("PATCH", post_path, {{"content", "Changed after the refusal."}}, key));
    CHECK(stack.count("SELECT COUNT(*) FROM social_posts") == 1);
    CHECK(stack.request("GET", post_path, nullptr, key).json["data"]["content"] ==
          "Before the refusal.");

    const auto again = connect(key);
    check_success_envelope(again, 200);
    CHECK(again.json["data"]["id"] == id);
    CHECK(again.json["data"]["reconnect_required"] == false);
    const auto health = stack.request("GET", "/v1/social/accounts/health", nullptr, key);
    CHECK(health.json["data"][0]["token_valid"] == true);
    CHECK(health.json["data"][0]["last_error"].is_null());
    check_success_envelope(
        stack.request("PATCH", post_path, {{"content", "Changed after the reconnect."}}, key), 200);
}

TEST_CASE_METHOD(OAuthConnect, "a state older than ten minutes is refused as expired",
                 "[e2e][social][oauth]") {
    fake.control_platform("x", "next_consent", {{"user_id", kUserId}});
    const std::string redirect = consent(authorize(key)["authorization_url"]);
    stack.db().run([](squawk::db::Session& s) {
        s.execute("UPDATE oauth_states SET expires_at = created_at - INTERVAL 1 SECOND");
    });
    const auto late = callback(redirect);
    check_error_envelope(late, 400, "INVALID_REQUEST");
    CHECK(late.json["error"]["details"]["reason"] == "expired");
    CHECK(stack.request("GET", "/v1/social/accounts", nullptr, key).json["data"].empty());
}

TEST_CASE_METHOD(OAuthConnect,
                 "a denied consent and missing permissions connect nothing and say why",
                 "[e2e][social][oauth]") {
    const auto denied = connect(key, {{"deny", true}});
    check_error_envelope(denied, 400, "INVALID_REQUEST");
    CHECK(denied.json["error"]["details"]["parameter"] == "error");
    CHECK(denied.json["error"]["details"]["reason"] == "access_denied");

    const auto partial = connect(key, {{"scopes", {"tweet.read", "users.read", "offline.access"}}});
    check_error_envelope(partial, 403, "CONNECTION_SCOPE_MISSING");
    CHECK(partial.json["error"]["details"]["missing_scopes"] ==
          json{"tweet.write", "media.write", "tweet.moderate.write", "like.write"});
    CHECK(partial.json["error"]["details"]["reconnect_required"] == true);
    CHECK(stack.request("GET", "/v1/social/accounts", nullptr, key).json["data"].empty());
}

TEST_CASE_METHOD(OAuthConnect,
                 "a platform that connects with credentials has no authorize step and a bad "
                 "callback is refused",
                 "[e2e][social][oauth]") {
    const auto bluesky = stack.request("GET", "/v1/social/connect/bluesky/authorize", nullptr, key);
    check_error_envelope(bluesky, 422, "VALIDATION_ERROR");
    CHECK(bluesky.json["error"]["details"]["fields"].contains("platform"));
    check_error_envelope(stack.request("GET", "/v1/social/connect/x/callback", nullptr, ""), 422,
                         "VALIDATION_ERROR");
    check_error_envelope(
        stack.request("GET", "/v1/social/connect/x/callback?state=made-up&code=1", nullptr, ""),
        400, "INVALID_REQUEST");
    check_error_envelope(stack.request("GET", "/v1/social/connect/nowhere/authorize", nullptr, key),
                         404, "RESOURCE_NOT_FOUND");
}

TEST_CASE("authorize names the settings a deployment without the platform's application lacks",
          "[e2e][social][oauth]") {
    Stack stack(api_only());
    const auto r =
        stack.request("GET", "/v1/social/connect/x/authorize", nullptr, stack.tenant().live_key);
    check_error_envelope(r, 422, "VALIDATION_ERROR");
    CHECK(r.json["error"]["details"]["settings"] ==
          json{"social.x.client_id", "social.x.client_secret"});
}
