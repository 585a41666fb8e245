#include "common/extensions/providers/cards/card_render.hpp"

#include "common/domain/generation/provider_error.hpp"
#include "common/extensions/providers/cards/card_drawings.hpp"

#include <algorithm>
#include <cmath>

namespace squawk::providers::cards {
namespace {

void paint_background(const Canvas& canvas) {
    cairo_t* cr = canvas.context;
    const auto& colors = canvas.palette.background;
    if (colors.size() == 1) {
        cairo_set_source_rgb(cr, colors[0].red, colors[0].green, colors[0].blue);
        cairo_paint(cr);
    } else {
        const PatternPtr gradient(cairo_pattern_create_linear(0, 0, canvas.width, canvas.height));
        for (std::size_t i = 0; i < colors.size(); ++i)
            cairo_pattern_add_color_stop_rgb(gradient.get(),
                                             static_cast<double>(i) / (colors.size() - 1),
                                             colors[i].red, colors[i].green, colors[i].blue);
        cairo_set_source(cr, gradient.get());
        cairo_paint(cr);
    }
    // Two faint accent circles bleeding off opposite corners give the card depth without
    // competing with the text.
    const Rgb& accent = canvas.palette.accent;
    cairo_set_source_rgba(cr, accent.red, accent.green, accent.blue, 0.10);
    cairo_new_path(cr);
    cairo_arc(cr, canvas.width, 0, 0.42 * canvas.unit, 0, 2 * M_PI);
    cairo_fill(cr);
    cairo_arc(cr, 0, canvas.height, 0.3 * canvas.unit, 0, 2 * M_PI);
    cairo_fill(cr);
}

void check_status(cairo_status_t status) {
    if (status != CAIRO_STATUS_SUCCESS)
        throw generation::ProviderError::retryable(std::string("cannot draw the card: ") +
                                                   cairo_status_to_string(status));
}

}  // namespace

SurfacePtr render_card(const generation::ImageRequest& request, CardTemplate card,
                       const std::string& family) {
    SurfacePtr surface(
        cairo_image_surface_create(CAIRO_FORMAT_RGB24, request.size.width, request.size.height));
    check_status(cairo_surface_status(surface.get()));
    const ContextPtr context(cairo_create(surface.get()));
    check_status(cairo_status(context.get()));

    Canvas canvas;
    canvas.context = context.get();
    canvas.width = request.size.width;
    canvas.height = request.size.height;
    canvas.unit = std::min(canvas.width, canvas.height);
    // Wide cards keep more air at the sides, tall ones at top and bottom.
    const double margin_x = std::max(0.08 * canvas.unit, 0.07 * canvas.width);
    const double margin_y = std::max(0.08 * canvas.unit, 0.06 * canvas.height);
    canvas.content = {margin_x, margin_y, canvas.width - 2 * margin_x,
                      canvas.height - 2 * margin_y};
    canvas.palette = palette_for(card, request);
    canvas.family = family;

    paint_background(canvas);
    switch (card) {
        case CardTemplate::title:
            draw_title_card(canvas, request);
            break;
        case CardTemplate::quote:
            draw_quote_card(canvas, request);
            break;
        case CardTemplate::list:
            draw_list_card(canvas, request);
            break;
        case CardTemplate::stat:
            draw_stat_card(canvas, request);
            break;
    }
    check_status(cairo_status(context.get()));
    cairo_surface_flush(surface.get());
    return surface;
}

}  // namespace squawk::providers::cards
