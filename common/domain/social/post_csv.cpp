#include "common/domain/social/post_csv.hpp"

#include "common/core/text/ascii.hpp"

#include <algorithm>
#include <array>

namespace squawk::social {
namespace {

constexpr std::array<std::string_view, 7> kColumns{"content",         "platforms", "account_ids",
                                                   "scheduled_time",  "link",      "media_urls",
                                                   "platform_options"};

std::vector<std::string> split_list(std::string_view cell) {
    std::vector<std::string> out;
    std::string current;
    for (char c : cell) {
        if (c == ' ' || c == '|' || c == '\t') {
            if (!current.empty()) out.push_back(std::move(current));
            current.clear();
        } else {
            current.push_back(c);
        }
    }
    if (!current.empty()) out.push_back(std::move(current));
    return out;
}

}  // namespace

CsvTable parse_csv(std::string_view text, size_t max_rows, size_t max_fields) {
    CsvTable table;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;      // inside a quoted field
    bool was_quoted = false;  // the current field was quoted and has closed
    bool row_started = false;
    size_t line = 1;
    auto fail = [&](std::string reason) {
        table.rows.clear();
        table.error = "line " + std::to_string(line) + ": " + reason;
        return table;
    };
    auto end_field = [&]() -> bool {
        row.push_back(std::move(field));
        field.clear();
        was_quoted = false;
        return row.size() <= max_fields;
    };
    auto end_row = [&]() -> bool {
        table.rows.push_back(std::move(row));
        row.clear();
        row_started = false;
        return table.rows.size() <= max_rows;
    };
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field.push_back('"');
                    ++i;
                } else {
                    quoted = false;
                    was_quoted = true;
                }
            } else {
                if (c == '\n') ++line;
                field.push_back(c);
            }
            continue;
        }
        if (c == ',') {
            row_started = true;
            if (!end_field()) return fail("too many fields");
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            if (row_started || !field.empty() || was_quoted) {
                if (!end_field()) return fail("too many fields");
                if (!end_row()) return fail("too many rows");
            }
            ++line;
        } else if (was_quoted) {
            return fail("text after a closing quote");
        } else if (c == '"') {
            if (!field.empty()) return fail("a quote inside an unquoted field");
            quoted = true;
            row_started = true;
        } else {
            field.push_back(c);
            row_started = true;
        }
    }
    if (quoted) return fail("unterminated quoted field");
    if (row_started || !field.empty() || was_quoted) {
        if (!end_field()) return fail("too many fields");
        if (!end_row()) return fail("too many rows");
    }
    return table;
}

CsvPosts csv_posts(std::string_view text, size_t max_posts) {
    CsvPosts out;
    if (text.size() > kMaxCsvBytes) {
        out.error = "must be at most 1 MB";
        return out;
    }
    auto table = parse_csv(text, max_posts + 1, kColumns.size());
    if (table.error) {
        out.error = *table.error;
        return out;
    }
    if (table.rows.empty()) {
        out.error = "needs a header row and at least one post";
        return out;
    }
    std::vector<std::string> header;
    for (const auto& name : table.rows.front()) {
        auto column = text::ascii_lowercase(text::trim_blanks(name));
        if (std::find(kColumns.begin(), kColumns.end(), column) == kColumns.end()) {
            out.error = "unknown column in the header: " + column;
            return out;
        }
        if (std::find(header.begin(), header.end(), column) != header.end()) {
            out.error = "column repeated in the header: " + column;
            return out;
        }
        header.push_back(std::move(column));
    }
    if (std::find(header.begin(), header.end(), "content") == header.end()) {
        out.error = "the header needs a content column";
        return out;
    }
    if (table.rows.size() < 2) {
        out.error = "needs a header row and at least one post";
        return out;
    }
    for (size_t r = 1; r < table.rows.size(); ++r) {
        const auto& cells = table.rows[r];
        if (cells.size() != header.size()) {
            out.error = "row " + std::to_string(r) + " has " + std::to_string(cells.size()) +
                        " fields; the header has " + std::to_string(header.size());
            out.posts.clear();
            return out;
        }
        nlohmann::json post = nlohmann::json::object();
        for (size_t c = 0; c < cells.size(); ++c) {
            const auto& column = header[c];
            if (column == "platforms" || column == "media_urls" || column == "account_ids") {
                auto items = split_list(cells[c]);
                if (!items.empty()) post[column] = items;
            } else if (column == "platform_options") {
                // A JSON object in one cell, as the JSON form takes it; checked like it after.
                if (text::trim_blanks(cells[c]).empty()) continue;
                auto options = nlohmann::json::parse(cells[c], nullptr, false);
                if (!options.is_object()) {
                    out.error = "row " + std::to_string(r) +
                                ": platform_options must be a JSON object such as "
                                "{\"x\": {\"reply_to\": \"123\"}}";
                    out.posts.clear();
                    return out;
                }
                post[column] = std::move(options);
            } else if (column == "content") {
                post[column] = cells[c];
            } else if (auto value = text::trim_blanks(cells[c]); !value.empty()) {
                post[column] = std::string(value);
            }
        }
        out.posts.push_back(std::move(post));
    }
    return out;
}

}  // namespace squawk::social
