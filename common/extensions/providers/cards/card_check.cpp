#include "common/extensions/providers/cards/card_check.hpp"

#include "common/extensions/providers/cards/card_colors.hpp"
#include "common/extensions/providers/cards/card_templates.hpp"
#include "common/extensions/providers/cards/card_text.hpp"

#include <glib.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

namespace squawk::providers::cards {
namespace {

using generation::FieldProblem;
using generation::ImageRequest;

struct TextField {
    std::string_view name;
    std::string ImageRequest::*member;
    std::size_t max_chars;
    bool required;
};

// The short fields' limits follow the space each has on the smallest card (1200x628) at a
// readable size; the quote's text is the one long field and its limit is configured.
constexpr std::size_t kMaxTitleChars = 120;
constexpr std::size_t kMaxSubtitleChars = 200;
constexpr std::size_t kMaxAuthorChars = 80;
constexpr std::size_t kMaxItemChars = 120;
constexpr std::size_t kMaxValueChars = 16;
constexpr std::size_t kMaxLabelChars = 120;

// The problem with a present text, if any: it must be UTF-8 (no NUL) and short enough.
std::optional<std::string> text_problem(const std::string& text, std::size_t max_chars) {
    if (!g_utf8_validate(text.data(), static_cast<gssize>(text.size()), nullptr))
        return "must be UTF-8 text";
    const auto chars =
        static_cast<std::size_t>(g_utf8_strlen(text.data(), static_cast<gssize>(text.size())));
    if (chars > max_chars) return "at most " + std::to_string(max_chars) + " characters";
    return std::nullopt;
}

class Problems {
  public:
    void add(std::string field, std::string message) {
        list_.push_back({std::move(field), std::move(message)});
    }
    std::vector<FieldProblem> take() { return std::move(list_); }

  private:
    std::vector<FieldProblem> list_;
};

void check_colors(const ImageRequest& request, Problems& problems) {
    if (request.background.size() > 3)
        problems.add("background", "1 to 3 colours (one is flat, two or three a gradient)");
    for (std::size_t i = 0; i < request.background.size(); ++i)
        if (!parse_hex_color(request.background[i]))
            problems.add("background[" + std::to_string(i) + "]", "must be a colour as #rrggbb");
    if (!request.text_color.empty() && !parse_hex_color(request.text_color))
        problems.add("text_color", "must be a colour as #rrggbb");
    if (!request.accent_color.empty() && !parse_hex_color(request.accent_color))
        problems.add("accent_color", "must be a colour as #rrggbb");
}

void check_size(const ImageRequest& request, Problems& problems) {
    for (const auto& size : generation::kImageSizes)
        if (size.width == request.size.width && size.height == request.size.height) return;
    std::string offered;
    for (const auto name : generation::kImageSizeNames)
        offered += (offered.empty() ? "" : ", ") + std::string(name);
    problems.add("size", "must be one of " + offered);
}

// The text fields `card` draws, with their limits; the others must stay empty.
std::vector<TextField> fields_of(CardTemplate card, const config::CardsSettings& settings) {
    const auto text_chars = static_cast<std::size_t>(settings.max_text_chars);
    switch (card) {
        case CardTemplate::title:
            return {{"title", &ImageRequest::title, kMaxTitleChars, true},
                    {"subtitle", &ImageRequest::subtitle, kMaxSubtitleChars, false}};
        case CardTemplate::quote:
            return {{"text", &ImageRequest::text, text_chars, true},
                    {"author", &ImageRequest::author, kMaxAuthorChars, false}};
        case CardTemplate::list:
            return {{"title", &ImageRequest::title, kMaxTitleChars, false}};
        case CardTemplate::stat:
            return {{"value", &ImageRequest::value, kMaxValueChars, true},
                    {"label", &ImageRequest::label, kMaxLabelChars, true}};
    }
    return {};
}

constexpr std::pair<std::string_view, std::string ImageRequest::*> kTextMembers[] = {
    {"title", &ImageRequest::title}, {"subtitle", &ImageRequest::subtitle},
    {"text", &ImageRequest::text},   {"author", &ImageRequest::author},
    {"value", &ImageRequest::value}, {"label", &ImageRequest::label}};

void check_items(const ImageRequest& request, CardTemplate card, Problems& problems) {
    if (card != CardTemplate::list) {
        if (!request.items.empty())
            problems.add("items", "not used by the '" + std::string(name_of(card)) + "' template");
        return;
    }
    if (request.items.empty())
        problems.add("items", "required by the 'list' template: 1 to " +
                                  std::to_string(kMaxListItems) + " entries");
    if (request.items.size() > kMaxListItems)
        problems.add("items", "at most " + std::to_string(kMaxListItems) + " entries");
    for (std::size_t i = 0; i < request.items.size(); ++i) {
        const std::string field = "items[" + std::to_string(i) + "]";
        if (is_blank(request.items[i]))
            problems.add(field, "must not be empty");
        else if (const auto problem = text_problem(request.items[i], kMaxItemChars))
            problems.add(field, *problem);
    }
}

void check_fields(const ImageRequest& request, CardTemplate card,
                  const config::CardsSettings& settings, Problems& problems) {
    const auto fields = fields_of(card, settings);
    for (const auto& [name, member] : kTextMembers) {
        const std::string& value = request.*member;
        const auto used = std::find_if(fields.begin(), fields.end(),
                                       [&](const TextField& f) { return f.name == name; });
        if (used == fields.end()) {
            if (!value.empty())
                problems.add(std::string(name),
                             "not used by the '" + std::string(name_of(card)) + "' template");
            continue;
        }
        if (is_blank(value)) {
            if (used->required)
                problems.add(std::string(name),
                             "required by the '" + std::string(name_of(card)) + "' template");
        } else if (const auto problem = text_problem(value, used->max_chars)) {
            problems.add(std::string(name), *problem);
        }
    }
    check_items(request, card, problems);
}

}  // namespace

std::vector<FieldProblem> check_card(const ImageRequest& request,
                                     const config::CardsSettings& settings) {
    Problems problems;
    if (!request.prompt.empty())
        problems.add("prompt",
                     "the cards provider renders templates only: give a template and its fields");
    if (!request.model.empty()) problems.add("model", "the cards provider has no models");
    check_size(request, problems);
    check_colors(request, problems);
    const auto card = template_named(request.template_name);
    if (!card) {
        std::string names;
        for (const auto name : template_names())
            names += (names.empty() ? "" : ", ") + std::string(name);
        problems.add("template", (request.template_name.empty() ? "required: one of "
                                                                : "unknown template: one of ") +
                                     names);
    } else {
        check_fields(request, *card, settings, problems);
    }
    return problems.take();
}

}  // namespace squawk::providers::cards
