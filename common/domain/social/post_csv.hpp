// Bulk posts as CSV (RFC 4180: commas, double-quoted fields with "" escapes, CRLF or LF rows) and
// how a CSV row becomes the JSON object a `posts` array entry would be.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::social {

inline constexpr size_t kMaxCsvBytes = 1 << 20;

struct CsvTable {
    std::vector<std::vector<std::string>> rows;  // the header row first
    std::optional<std::string> error;            // set when the text is not valid CSV
};

// Splits `text` into rows of fields. Never throws; refuses unterminated quotes, text after a
// closing quote, and more than `max_rows` rows or `max_fields` fields in a row.
CsvTable parse_csv(std::string_view text, size_t max_rows, size_t max_fields);

struct CsvPosts {
    std::vector<nlohmann::json> posts;  // one object per data row, with the row's columns
    std::optional<std::string> error;
};

// Reads the header (content, platforms, scheduled_time, link, media_urls; any order, content
// required) and turns each data row into a post object: `platforms` and `media_urls` are split
// on spaces or `|`, empty cells are left out.
CsvPosts csv_posts(std::string_view text, size_t max_posts);

}  // namespace squawk::social
