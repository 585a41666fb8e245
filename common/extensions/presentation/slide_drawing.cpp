#include "common/extensions/presentation/slide_drawing.hpp"

#include "common/extensions/presentation/slide_image.hpp"
#include "common/extensions/presentation/slide_layout.hpp"
#include "common/extensions/providers/cards/card_text.hpp"

#include <cmath>

namespace squawk::presentation {
namespace {

namespace cards = providers::cards;

cards::Rgb rgb(const std::string& hex) {
    return cards::parse_hex_color("#" + hex).value_or(cards::Rgb{});
}

void fill(cairo_t* cr, const Frame& f, const std::string& color) {
    const auto c = rgb(color);
    cairo_set_source_rgb(cr, c.red, c.green, c.blue);
    cairo_rectangle(cr, f.x, f.y, f.width, f.height);
    cairo_fill(cr);
}

// Bold text in `frame`, shrunk until it fits, sitting on the frame's bottom edge.
void draw_heading(cairo_t* cr, const Deck& deck, const std::string& text, const Frame& frame,
                  double largest) {
    const cards::TextStyle style{.family = deck.font, .weight = PANGO_WEIGHT_BOLD};
    const auto layout =
        cards::fit_text(cr, text, style, largest, largest / 2, frame.width, frame.height);
    const auto box = cards::logical_box(layout.get());
    cards::draw_layout(cr, layout.get(), frame.x, frame.y + frame.height - box.height,
                       rgb(deck.colors.title));
}

// The bullets from the top of `frame`, one size for all, each after an accent dot.
void draw_bullets(cairo_t* cr, const Deck& deck, const std::vector<std::string>& bullets,
                  const Frame& frame) {
    const cards::TextStyle style{.family = deck.font, .line_spacing = 1.1};
    const auto text_width = [&](double size) { return frame.width - 1.4 * size; };
    const auto total_height = [&](double size) {
        double height = 0;
        for (const auto& b : bullets)
            height +=
                cards::logical_box(cards::layout_text(cr, b, style, size, text_width(size)).get())
                    .height +
                0.5 * size;
        return height;
    };
    const double size = cards::fitting_size(kBulletSize, kBulletSize / 2, [&](double candidate) {
        return total_height(candidate) <= frame.height;
    });
    const auto dot = rgb(deck.colors.accent);
    double y = frame.y;
    for (const auto& b : bullets) {
        const auto layout = cards::layout_text(cr, b, style, size, text_width(size));
        const double height = cards::logical_box(layout.get()).height;
        // Text that still overflows at the smallest size is clipped at the frame, not drawn past.
        if (y + height > frame.y + frame.height) break;
        cairo_set_source_rgb(cr, dot.red, dot.green, dot.blue);
        cairo_new_path(cr);
        cairo_arc(cr, frame.x + 0.35 * size, y + 0.62 * size, 0.18 * size, 0, 2 * M_PI);
        cairo_fill(cr);
        cards::draw_layout(cr, layout.get(), frame.x + 1.4 * size, y, rgb(deck.colors.text));
        y += height + 0.5 * size;
    }
}

void draw_picture(cairo_t* cr, const SlideImage& image) {
    const auto picture = decode_image(image.bytes, image.extension);
    const int width = cairo_image_surface_get_width(picture.get());
    const int height = cairo_image_surface_get_height(picture.get());
    const Frame f = fit_image(kImageFrame, width, height);
    cairo_save(cr);
    cairo_translate(cr, f.x, f.y);
    cairo_scale(cr, f.width / width, f.height / height);
    cairo_set_source_surface(cr, picture.get(), 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
    cairo_paint(cr);
    cairo_restore(cr);
}

}  // namespace

void draw_page(cairo_t* cr, const Deck& deck, size_t page) {
    fill(cr, {0, 0, kPageWidth, kPageHeight}, deck.colors.background);
    if (page == 0) {
        draw_heading(cr, deck, deck.title, kDeckTitleFrame, kDeckTitleSize);
        fill(cr, kDeckTitleBar, deck.colors.accent);
        return;
    }
    const DeckSlide& slide = deck.slides.at(page - 1);
    draw_heading(cr, deck, slide.title, kSlideTitleFrame, kSlideTitleSize);
    fill(cr, kSlideTitleBar, deck.colors.accent);
    if (!slide.bullets.empty())
        draw_bullets(cr, deck, slide.bullets, slide.image ? kBodyBesideImageFrame : kBodyFrame);
    if (slide.image) draw_picture(cr, *slide.image);
}

}  // namespace squawk::presentation
