// JSON text written by hand where building an nlohmann::json first would cost more than the
// text itself (a log line, a batch of rows handed to MariaDB's JSON_TABLE).
#pragma once

#include <string>
#include <string_view>

namespace squawk::text {

// Appends `text` as a JSON string, quotes included; the bytes are what nlohmann's dump() writes,
// invalid UTF-8 replaced rather than thrown.
void append_json_string(std::string& out, std::string_view text);

}  // namespace squawk::text
