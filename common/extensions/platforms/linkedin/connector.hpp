// LinkedIn connector (the versioned REST API with OAuth 2.0 member tokens): connects a member
// through the authorization code flow (token endpoint on www.linkedin.com, refresh tokens where
// LinkedIn gives the application them), names them by the OpenID userinfo, publishes posts
// (/rest/posts) with text, a linked article, images, a video in parts or a document, edits their
// text, deletes them, lists the member's posts and reads follower and post counts.
//
// An account is one member, and posts go out as that member (urn:li:person:<sub>). Organization
// pages are not connected: the consent asks only the member's scopes, since asking
// w_organization_social of an application without LinkedIn's Community Management product fails
// the whole consent, and a connect has no way to choose among the pages a member administers.
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>

namespace squawk::social::linkedin {

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::linkedin
