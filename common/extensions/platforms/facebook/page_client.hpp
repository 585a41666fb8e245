// The Graph calls that manage a Page rather than post on it: its settings read and changed
// (POST /{page}), its picture (POST /{page}/picture) and its cover (an unpublished photo, then
// POST /{page} with cover and offset_y). Each needs the Page token with pages_manage_metadata.
#pragma once

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/platform_api.hpp"

#include <string>

namespace squawk::social::facebook {

// The Page fields Squawk reads and changes: about (at most 255 characters), description,
// website, phone and emails.
inline constexpr const char* kPageSettingFields[] = {"about", "description", "website", "phone",
                                                     "emails"};

class PageClient {
  public:
    PageClient(PlatformApi& api, const Target& page) : api_(api), page_(page) {}

    // {id, name, about, description, website, phone, emails, cover?} as Facebook answers it.
    Answer settings();
    // `fields` form-encoded as Facebook takes them (emails a JSON array); {success: true}.
    Answer update(const http::FormFields& fields);
    Answer set_picture(const std::string& url);
    Answer set_cover(const std::string& url, int offset_y);

  private:
    Answer post(const std::string& path, const http::FormFields& fields);

    PlatformApi& api_;
    const Target& page_;
};

}  // namespace squawk::social::facebook
