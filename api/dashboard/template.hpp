// The dashboard's HTML templates: a small subset of Mustache in which every value is
// HTML-escaped, with no way to write one unescaped, so no data can become markup.
//   {{name}}              the value of `name`, escaped ({{.}} is the current value)
//   {{#name}}..{{/name}}  once per item of a list, inside an object, or once when true / non-empty
//   {{^name}}..{{/name}}  once when `name` is missing, false, null or empty
//   {{>name}}             the template `name` from `partials`, in the same context
//   {{! text}}            a comment
// Names are looked up in the current value, then in each enclosing one.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <string_view>

namespace squawk::api::dashboard {

using Partials = std::map<std::string, std::string_view, std::less<>>;

// & < > " ' as character references.
std::string html_escape(std::string_view text);

// Throws std::logic_error on a template that is not well formed (an unclosed tag or section, an
// unknown partial): templates are part of the build, and the unit tests render each one.
std::string render(std::string_view templ, const nlohmann::json& data,
                   const Partials& partials = {});

}  // namespace squawk::api::dashboard
