#include "common/extensions/providers/cards/card_text.hpp"

#include <algorithm>
#include <cctype>

namespace squawk::providers::cards {
namespace {

Box pixels_of(const PangoRectangle& r) {
    return {static_cast<double>(r.x), static_cast<double>(r.y), static_cast<double>(r.width),
            static_cast<double>(r.height)};
}

bool inside(PangoLayout* layout, double width, double height) {
    const Box box = logical_box(layout);
    return box.width <= width + 0.5 && box.height <= height + 0.5;
}

}  // namespace

bool is_blank(std::string_view text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

LayoutPtr layout_text(cairo_t* context, const std::string& text, const TextStyle& style,
                      double pixels, double width) {
    LayoutPtr layout(pango_cairo_create_layout(context));
    const FontDescriptionPtr font(pango_font_description_new());
    pango_font_description_set_family(font.get(), style.family.c_str());
    pango_font_description_set_weight(font.get(), style.weight);
    pango_font_description_set_style(font.get(), style.slant);
    pango_font_description_set_absolute_size(font.get(), pixels * PANGO_SCALE);
    pango_layout_set_font_description(layout.get(), font.get());
    pango_layout_set_width(layout.get(), static_cast<int>(width * PANGO_SCALE));
    pango_layout_set_wrap(layout.get(), PANGO_WRAP_WORD_CHAR);
    pango_layout_set_alignment(layout.get(), style.alignment);
    pango_layout_set_line_spacing(layout.get(), static_cast<float>(style.line_spacing));
    pango_layout_set_text(layout.get(), text.data(), static_cast<int>(text.size()));
    return layout;
}

Box logical_box(PangoLayout* layout) {
    PangoRectangle logical;
    pango_layout_get_pixel_extents(layout, nullptr, &logical);
    return pixels_of(logical);
}

Box ink_box(PangoLayout* layout) {
    PangoRectangle ink;
    pango_layout_get_pixel_extents(layout, &ink, nullptr);
    return pixels_of(ink);
}

double fitting_size(double largest, double smallest, const std::function<bool(double)>& fits) {
    for (double size = largest; size > smallest; size *= 0.95)
        if (fits(size)) return size;
    return smallest;
}

LayoutPtr fit_text(cairo_t* context, const std::string& text, const TextStyle& style,
                   double largest, double smallest, double width, double height) {
    const double size = fitting_size(largest, smallest, [&](double candidate) {
        return inside(layout_text(context, text, style, candidate, width).get(), width, height);
    });
    LayoutPtr layout = layout_text(context, text, style, size, width);
    if (!inside(layout.get(), width, height)) {
        pango_layout_set_height(layout.get(), static_cast<int>(height * PANGO_SCALE));
        pango_layout_set_ellipsize(layout.get(), PANGO_ELLIPSIZE_END);
    }
    return layout;
}

bool right_to_left(PangoLayout* layout) {
    const PangoLayoutLine* first = pango_layout_get_line_readonly(layout, 0);
    return first && first->resolved_dir == PANGO_DIRECTION_RTL;
}

void draw_layout(cairo_t* context, PangoLayout* layout, double x, double y, const Rgb& color,
                 double alpha) {
    cairo_set_source_rgba(context, color.red, color.green, color.blue, alpha);
    cairo_move_to(context, x, y);
    pango_cairo_show_layout(context, layout);
}

int unknown_glyphs(const std::string& text, const std::string& family) {
    const SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1));
    const ContextPtr context(cairo_create(surface.get()));
    const LayoutPtr layout = layout_text(context.get(), text, {.family = family}, 40, 1000);
    return pango_layout_get_unknown_glyphs_count(layout.get());
}

}  // namespace squawk::providers::cards
