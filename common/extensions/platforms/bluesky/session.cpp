#include "common/extensions/platforms/bluesky/session.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/runtime/single_flight.hpp"
#include "common/extensions/platforms/bluesky/xrpc.hpp"

namespace squawk::social::bluesky {
namespace {

using nlohmann::json;

// How the PDS refused an access token, if it did.
enum class TokenRefusal { none, expired, invalid };

TokenRefusal token_refusal(const http::Response& response) {
    if (response.status != 400 && response.status != 401) return TokenRefusal::none;
    const auto error = json_text(json::parse(response.body, nullptr, false), "error");
    if (response.status == 400 && error == "ExpiredToken") return TokenRefusal::expired;
    if (response.status == 401 && (error == "InvalidToken" || error == "AuthenticationRequired"))
        return TokenRefusal::invalid;
    return TokenRefusal::none;
}

// The tokens of a createSession or refreshSession output, if it has them all.
std::optional<SessionTokens> tokens_of(const json& output) {
    SessionTokens tokens{json_text(output, "did"), json_text(output, "handle"),
                         json_text(output, "accessJwt"), json_text(output, "refreshJwt")};
    if (tokens.did.empty() || tokens.handle.empty() || tokens.access_jwt.empty())
        return std::nullopt;
    return tokens;
}

// What one createSession gave the operations that waited for it.
struct SignIn {
    std::optional<SessionTokens> tokens;
    std::optional<PlatformFailure> failure;
};

// The process's createSession calls in flight, one per credentials' key.
runtime::SingleFlight<SignIn>& sign_ins() {
    static runtime::SingleFlight<SignIn> flights;
    return flights;
}

}  // namespace

// The key holds a digest of the app password as well as the identifier and the PDS: credentials
// with another password (wrong, or of another workspace) must sign in themselves, never ride on a
// session someone else opened.
PdsSession::PdsSession(PlatformApi& pds, const std::string& service, const Credentials& credentials)
    : pds_(pds),
      key_(credentials.at("identifier") + '\n' + service + '\n' +
           crypto::sha256_hex(credentials.at("app_password"))),
      identifier_(credentials.at("identifier")),
      password_(credentials.at("app_password")) {}

std::optional<PlatformFailure> PdsSession::open() {
    if (auto kept = process_sessions().find(key_)) {
        tokens_ = std::move(*kept);
        return std::nullopt;
    }
    return create();
}

Answer PdsSession::call(const char* method, const std::string& path, const json& body) {
    return authorized(
        [&](http::HeaderList bearer) { return pds_.send(method, path, std::move(bearer), body); });
}

Answer PdsSession::call(const char* method, const std::string& path,
                        const std::string& content_type, const std::string& body) {
    return authorized([&](http::HeaderList bearer) {
        return pds_.send(method, path, std::move(bearer), content_type, body);
    });
}

// A refused token means the call did nothing, so sending it again cannot repeat it. A session
// this operation created is not renewed: its refusal is the answer.
Answer PdsSession::authorized(const Send& send) {
    const auto response = send(bearer());
    const auto refusal = token_refusal(response);
    if (refusal == TokenRefusal::none || (refusal == TokenRefusal::invalid && created_))
        return read(response);
    if (auto failure = renew(refusal == TokenRefusal::expired)) return {json(), std::move(failure)};
    return read(send(bearer()));
}

// A refresh the PDS did not answer (429, 5xx, no answer) fails the operation, to be tried again
// later, rather than spend one of the account's few createSession calls.
std::optional<PlatformFailure> PdsSession::renew(bool expired) {
    const std::string stale = tokens_.access_jwt;
    if (adopt_newer(stale)) return std::nullopt;
    if (expired && !tokens_.refresh_jwt.empty()) {
        auto refreshed = read(pds_.send("POST", "/xrpc/com.atproto.server.refreshSession",
                                        {{"Authorization", "Bearer " + tokens_.refresh_jwt}}));
        if (refreshed.failure && refreshed.failure->kind != FailureKind::refused)
            return nothing_published(std::move(*refreshed.failure));
        if (!refreshed.failure)
            if (auto tokens = tokens_of(refreshed.body)) {
                tokens_ = std::move(*tokens);
                process_sessions().store(key_, tokens_);
                return std::nullopt;
            }
        // Refused: the refresh token expired, was revoked, or another caller's refresh rotated
        // it, storing the new session.
        if (adopt_newer(stale)) return std::nullopt;
    }
    process_sessions().forget(key_, stale);
    return create();
}

bool PdsSession::adopt_newer(const std::string& stale) {
    auto kept = process_sessions().find(key_);
    if (!kept || kept->access_jwt == stale) return false;
    tokens_ = std::move(*kept);
    return true;
}

// The operations of one account that find no session at once (a burst of its scheduled posts)
// sign in once between them: Bluesky allows an account 30 createSession calls in 5 minutes.
std::optional<PlatformFailure> PdsSession::create() {
    auto signed_in = sign_ins().run(key_, [this] {
        auto answer = read(pds_.send("POST", "/xrpc/com.atproto.server.createSession", {},
                                     {{"identifier", identifier_}, {"password", password_}}));
        if (answer.failure) {
            auto failure = nothing_published(std::move(*answer.failure));
            failure.field = "app_password";
            return SignIn{std::nullopt, std::move(failure)};
        }
        auto tokens = tokens_of(answer.body);
        if (!tokens)
            return SignIn{std::nullopt, unreadable("Bluesky's session names no account or token")};
        process_sessions().store(key_, *tokens);
        return SignIn{std::move(tokens), std::nullopt};
    });
    if (signed_in.failure) return std::move(signed_in.failure);
    tokens_ = std::move(*signed_in.tokens);
    created_ = true;
    return std::nullopt;
}

http::HeaderList PdsSession::bearer() const {
    return {{"Authorization", "Bearer " + tokens_.access_jwt}};
}

}  // namespace squawk::social::bluesky
