// What a web page says about itself, for the card under a post that links to it: its Open Graph
// title and description, else its <title> and description meta tag. A pure function of the
// bytes, since the page comes from anyone.
#pragma once

#include <string>
#include <string_view>

namespace squawk::social::bluesky {

struct PageMeta {
    std::string title;        // "" when the page names none
    std::string description;  // may be ""
};

// og:title, else <title>; og:description, else <meta name="description">; read from the page's
// head (up to </head> or <body>) with character references decoded, whitespace collapsed and
// bytes that are not UTF-8 replaced. At most 300 bytes of title and 1000 of description, cut at a
// character boundary.
PageMeta read_page_meta(std::string_view html);

}  // namespace squawk::social::bluesky
