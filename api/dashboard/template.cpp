#include "api/dashboard/template.hpp"

#include "common/core/text/ascii.hpp"
#include "common/core/text/markup_escape.hpp"

#include <stdexcept>
#include <vector>

namespace squawk::api::dashboard {
namespace {

constexpr std::string_view kOpen = "{{";
constexpr std::string_view kClose = "}}";
// Partials that include themselves would never end.
constexpr size_t kMaxDepth = 32;

struct Tag {
    size_t start = 0;  // of "{{"
    size_t end = 0;    // just past "}}"
    std::string_view text;
};

std::optional<Tag> next_tag(std::string_view t, size_t from) {
    const size_t open = t.find(kOpen, from);
    if (open == std::string_view::npos) return std::nullopt;
    const size_t close = t.find(kClose, open + kOpen.size());
    if (close == std::string_view::npos)
        throw std::logic_error("template: unclosed tag at byte " + std::to_string(open));
    return Tag{open, close + kClose.size(),
               text::trim_blanks(t.substr(open + kOpen.size(), close - open - kOpen.size()))};
}

bool truthy(const nlohmann::json& v) {
    if (v.is_null()) return false;
    if (v.is_boolean()) return v.get<bool>();
    // json::empty() is false for every string, so a string's own emptiness is asked.
    if (v.is_string()) return !v.get_ref<const std::string&>().empty();
    if (v.is_array() || v.is_object()) return !v.empty();
    return true;
}

std::string text_of(const nlohmann::json& v) {
    if (v.is_null()) return {};
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

class Renderer {
  public:
    explicit Renderer(const Partials& partials) : partials_(partials) {}

    void run(std::string_view t, const nlohmann::json& data, std::string& out) {
        scopes_.push_back(&data);
        if (scopes_.size() > kMaxDepth) throw std::logic_error("template: nested too deeply");
        size_t at = 0;
        while (const auto tag = next_tag(t, at)) {
            out.append(t.substr(at, tag->start - at));
            at = tag->end;
            if (tag->text.empty()) throw std::logic_error("template: empty tag");
            const char kind = tag->text.front();
            const std::string_view name = text::trim_blanks(tag->text.substr(1));
            switch (kind) {
                case '!':
                    break;
                case '#':
                case '^': {
                    const auto close = section_end(t, at, name);
                    section(kind == '^', name, t.substr(at, close.start - at), out);
                    at = close.end;
                    break;
                }
                case '/':
                    throw std::logic_error("template: {{/" + std::string(name) +
                                           "}} closes nothing");
                case '>': {
                    const auto found = partials_.find(name);
                    if (found == partials_.end())
                        throw std::logic_error("template: no partial " + std::string(name));
                    run(found->second, *scopes_.back(), out);
                    break;
                }
                default:
                    out += html_escape(text_of(lookup(tag->text)));
            }
        }
        out.append(t.substr(at));
        scopes_.pop_back();
    }

  private:
    const nlohmann::json& lookup(std::string_view name) const {
        static const nlohmann::json kMissing;
        if (name == ".") return *scopes_.back();
        for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
            const auto& scope = **it;
            if (!scope.is_object()) continue;
            const auto found = scope.find(name);
            if (found != scope.end()) return *found;
        }
        return kMissing;
    }

    // The tag closing the section `name` opened just before `from`.
    static Tag section_end(std::string_view t, size_t from, std::string_view name) {
        int depth = 0;
        for (auto tag = next_tag(t, from); tag; tag = next_tag(t, tag->end)) {
            const char kind = tag->text.empty() ? ' ' : tag->text.front();
            if (kind == '#' || kind == '^') ++depth;
            if (kind != '/') continue;
            if (depth-- > 0) continue;
            if (text::trim_blanks(tag->text.substr(1)) != name)
                throw std::logic_error("template: {{#" + std::string(name) + "}} closed by {{" +
                                       std::string(tag->text) + "}}");
            return *tag;
        }
        throw std::logic_error("template: {{#" + std::string(name) + "}} is never closed");
    }

    void section(bool inverted, std::string_view name, std::string_view body, std::string& out) {
        const auto& value = lookup(name);
        if (inverted) {
            if (!truthy(value)) run(body, *scopes_.back(), out);
            return;
        }
        if (!truthy(value)) return;
        if (value.is_array()) {
            for (const auto& item : value) run(body, item, out);
        } else if (value.is_object()) {
            run(body, value, out);
        } else {
            run(body, *scopes_.back(), out);
        }
    }

    const Partials& partials_;
    std::vector<const nlohmann::json*> scopes_;
};

}  // namespace

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto entity = text::markup_entity(c);
        if (entity.empty())
            out += c;
        else
            out += entity;
    }
    return out;
}

std::string render(std::string_view templ, const nlohmann::json& data, const Partials& partials) {
    std::string out;
    Renderer(partials).run(templ, data, out);
    return out;
}

}  // namespace squawk::api::dashboard
