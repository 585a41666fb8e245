// LinkedIn connector (the versioned REST API with OAuth 2.0 member tokens): connects a member
// through the authorization code flow (token endpoint on www.linkedin.com, refresh tokens where
// LinkedIn gives the application them), names them by the OpenID userinfo, publishes posts
// (/rest/posts) with text, a linked article, images, a video in parts or a document, edits their
// text, deletes them, lists the member's posts, reads follower and post counts, and lists,
// answers, likes and deletes the comments under them (comments.hpp).
//
// An account is one member, and posts go out as that member (urn:li:person:<sub>), or as an
// organization page the member administers when the post names it (platform_options.linkedin.
// organization). The consent asks the organization scopes only where [social.linkedin]
// organization_pages says the application has LinkedIn's Community Management product: asking
// them of one without it fails the whole consent.
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>

namespace squawk::social::linkedin {

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::linkedin
