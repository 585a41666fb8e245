// The card Bluesky shows under a post that links somewhere (app.bsky.embed.external): the link's
// page fetched as every call to a user's URL is (each hop's address checked and the only one
// connected to, a few redirects, a size cap, one deadline) and read for its title and
// description. Bluesky's app makes the card from the page itself; posts made through the API
// carry one only when the poster made it.
#pragma once

#include "common/core/http/http_client.hpp"
#include "common/domain/social/connector.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <string>

namespace squawk::social::bluesky {

// {$type: app.bsky.embed.external, external: {uri, title, description}} for `url`, or nothing
// when its page cannot be fetched by `timeout`, is not HTML, or names no title. No card rather
// than one titled with the URL: the link is already in the text as a facet, so such a card would
// only repeat it, and the post must not wait or fail for a decoration. `check` resolves and checks
// each hop's address (Message::check_url).
std::optional<nlohmann::json> link_card(http::Client& http, const std::string& url,
                                        std::chrono::milliseconds timeout,
                                        const TargetCheck& check);

}  // namespace squawk::social::bluesky
