#include "common/extensions/providers/cards/card_drawings.hpp"

#include <cmath>
#include <numeric>
#include <vector>

namespace squawk::providers::cards {
namespace {

TextStyle style(const Canvas& canvas, PangoWeight weight, PangoAlignment alignment,
                double line_spacing) {
    return {.family = canvas.family,
            .weight = weight,
            .alignment = alignment,
            .line_spacing = line_spacing};
}

double height_of(PangoLayout* layout) {
    return logical_box(layout).height;
}

// Fits `text` on one line when any size down to `smallest` allows it (a figure reads badly
// broken in two), else wraps it like any text.
LayoutPtr fit_one_line(const Canvas& canvas, const std::string& text, const TextStyle& look,
                       double largest, double smallest, double width, double height) {
    const auto fits = [&](double size) {
        const LayoutPtr layout = layout_text(canvas.context, text, look, size, width);
        const Box box = logical_box(layout.get());
        return pango_layout_get_line_count(layout.get()) == 1 && box.width <= width &&
               box.height <= height;
    };
    const double size = fitting_size(largest, smallest, fits);
    if (fits(size)) return layout_text(canvas.context, text, look, size, width);
    return fit_text(canvas.context, text, look, largest, smallest, width, height);
}

}  // namespace

void fill_bar(const Canvas& canvas, double x, double y, double width, double height,
              const Rgb& color) {
    cairo_t* cr = canvas.context;
    const double radius = height / 2;
    cairo_new_path(cr);
    cairo_arc(cr, x + radius, y + radius, radius, M_PI / 2, 3 * M_PI / 2);
    cairo_arc(cr, x + width - radius, y + radius, radius, 3 * M_PI / 2, M_PI / 2);
    cairo_close_path(cr);
    cairo_set_source_rgb(cr, color.red, color.green, color.blue);
    cairo_fill(cr);
}

void draw_title_card(const Canvas& canvas, const generation::ImageRequest& request) {
    const double u = canvas.unit;
    const Box& box = canvas.content;
    const double bar_width = 0.12 * u;
    const double bar_height = 0.014 * u;
    const double gap = 0.045 * u;

    LayoutPtr subtitle;
    double subtitle_block = 0;
    if (!is_blank(request.subtitle)) {
        subtitle = fit_text(canvas.context, request.subtitle,
                            style(canvas, PANGO_WEIGHT_NORMAL, PANGO_ALIGN_CENTER, 1.0), 0.052 * u,
                            0.026 * u, box.width * 0.9, box.height * 0.28);
        subtitle_block = 0.7 * gap + height_of(subtitle.get());
    }
    const LayoutPtr title = fit_text(
        canvas.context, request.title, style(canvas, PANGO_WEIGHT_BOLD, PANGO_ALIGN_CENTER, 0.95),
        0.13 * u, 0.04 * u, box.width, box.height - bar_height - gap - subtitle_block);
    const double title_height = height_of(title.get());

    double y = box.y + (box.height - (bar_height + gap + title_height + subtitle_block)) / 2;
    fill_bar(canvas, (canvas.width - bar_width) / 2, y, bar_width, bar_height,
             canvas.palette.accent);
    y += bar_height + gap;
    draw_layout(canvas.context, title.get(), box.x, y, canvas.palette.text);
    y += title_height + 0.7 * gap;
    if (subtitle)
        draw_layout(canvas.context, subtitle.get(), box.x + box.width * 0.05, y,
                    canvas.palette.text, 0.82);
}

void draw_quote_card(const Canvas& canvas, const generation::ImageRequest& request) {
    const double u = canvas.unit;
    const Box& box = canvas.content;
    const double gap = 0.04 * u;

    LayoutPtr author;
    double author_block = 0;
    if (!is_blank(request.author)) {
        author = fit_text(canvas.context, "\u2014 " + request.author,
                          style(canvas, PANGO_WEIGHT_SEMIBOLD, PANGO_ALIGN_LEFT, 1.0), 0.042 * u,
                          0.026 * u, box.width, box.height * 0.15);
        author_block = 1.2 * gap + height_of(author.get());
    }
    // The mark opens the quote on the side the text starts from; a serif mark reads as a
    // quotation at a glance. It is placed by its ink: the glyph sits high in a tall line box.
    TextStyle mark_style = style(canvas, PANGO_WEIGHT_BOLD, PANGO_ALIGN_LEFT, 1.0);
    mark_style.family = "Noto Serif, " + canvas.family;
    LayoutPtr mark = layout_text(canvas.context, "\u201C", mark_style, 0.3 * u, box.width);
    const double mark_height = ink_box(mark.get()).height;

    const LayoutPtr text = fit_text(
        canvas.context, request.text, style(canvas, PANGO_WEIGHT_MEDIUM, PANGO_ALIGN_LEFT, 1.0),
        0.075 * u, 0.024 * u, box.width, box.height - mark_height - gap - author_block);
    const double text_height = height_of(text.get());
    const bool rtl = right_to_left(text.get());
    if (rtl) mark = layout_text(canvas.context, "\u201D", mark_style, 0.3 * u, box.width);
    const Box mark_ink = ink_box(mark.get());

    double y = box.y + (box.height - (mark_height + gap + text_height + author_block)) / 2;
    const double mark_x = rtl ? box.x + box.width - mark_ink.width : box.x;
    draw_layout(canvas.context, mark.get(), mark_x - mark_ink.x, y - mark_ink.y,
                canvas.palette.accent);
    y += mark_height + gap;
    draw_layout(canvas.context, text.get(), box.x, y, canvas.palette.text);
    y += text_height + 1.2 * gap;
    if (author) draw_layout(canvas.context, author.get(), box.x, y, canvas.palette.accent);
}

void draw_list_card(const Canvas& canvas, const generation::ImageRequest& request) {
    const double u = canvas.unit;
    const Box& box = canvas.content;
    const double bar_width = 0.1 * u;
    const double bar_height = 0.012 * u;
    const double gap = 0.035 * u;

    LayoutPtr title;
    double title_block = 0;
    if (!is_blank(request.title)) {
        title = fit_text(canvas.context, request.title,
                         style(canvas, PANGO_WEIGHT_BOLD, PANGO_ALIGN_LEFT, 0.95), 0.085 * u,
                         0.04 * u, box.width, box.height * 0.25);
        title_block = height_of(title.get()) + gap + bar_height + 1.4 * gap;
    }

    // One size for every item, so the list reads as one block.
    const TextStyle item_style = style(canvas, PANGO_WEIGHT_NORMAL, PANGO_ALIGN_LEFT, 1.0);
    const auto layouts_at = [&](double size) {
        std::vector<LayoutPtr> items;
        for (const auto& item : request.items)
            items.push_back(
                layout_text(canvas.context, item, item_style, size, box.width - 1.2 * size));
        return items;
    };
    const auto items_height = [](const std::vector<LayoutPtr>& items, double size) {
        return std::accumulate(
                   items.begin(), items.end(), 0.0,
                   [](double sum, const LayoutPtr& item) { return sum + height_of(item.get()); }) +
               0.6 * size * static_cast<double>(items.size() - 1);
    };
    const double room = box.height - title_block;
    const double size = fitting_size(0.058 * u, 0.022 * u, [&](double candidate) {
        return items_height(layouts_at(candidate), candidate) <= room;
    });
    const std::vector<LayoutPtr> items = layouts_at(size);

    double y = box.y + (box.height - (title_block + items_height(items, size))) / 2;
    if (title) {
        draw_layout(canvas.context, title.get(), box.x, y, canvas.palette.text);
        y += height_of(title.get()) + gap;
        const double bar_x = right_to_left(title.get()) ? box.x + box.width - bar_width : box.x;
        fill_bar(canvas, bar_x, y, bar_width, bar_height, canvas.palette.accent);
        y += bar_height + 1.4 * gap;
    }
    const double indent = 1.2 * size;
    const double radius = 0.2 * size;
    for (const auto& item : items) {
        const bool rtl = right_to_left(item.get());
        const double baseline = pango_layout_get_baseline(item.get()) / double(PANGO_SCALE);
        const double bullet_x = rtl ? box.x + box.width - radius : box.x + radius;
        cairo_new_path(canvas.context);
        cairo_arc(canvas.context, bullet_x, y + baseline - 0.33 * size, radius, 0, 2 * M_PI);
        const Rgb& accent = canvas.palette.accent;
        cairo_set_source_rgb(canvas.context, accent.red, accent.green, accent.blue);
        cairo_fill(canvas.context);
        draw_layout(canvas.context, item.get(), rtl ? box.x : box.x + indent, y,
                    canvas.palette.text);
        y += height_of(item.get()) + 0.6 * size;
    }
}

void draw_stat_card(const Canvas& canvas, const generation::ImageRequest& request) {
    const double u = canvas.unit;
    const Box& box = canvas.content;
    const double bar_width = 0.1 * u;
    const double bar_height = 0.012 * u;
    const double gap = 0.05 * u;

    // The figure is placed by its ink: digits fill little of a line box this large.
    const LayoutPtr value = fit_one_line(canvas, request.value,
                                         style(canvas, PANGO_WEIGHT_BOLD, PANGO_ALIGN_CENTER, 1.0),
                                         0.34 * u, 0.08 * u, box.width, box.height * 0.5);
    const Box value_ink = ink_box(value.get());
    const LayoutPtr label = fit_text(canvas.context, request.label,
                                     style(canvas, PANGO_WEIGHT_MEDIUM, PANGO_ALIGN_CENTER, 1.0),
                                     0.062 * u, 0.028 * u, box.width * 0.9, box.height * 0.3);
    const double label_height = height_of(label.get());

    double y =
        box.y + (box.height - (value_ink.height + gap + bar_height + gap + label_height)) / 2;
    draw_layout(canvas.context, value.get(), box.x, y - value_ink.y, canvas.palette.accent);
    y += value_ink.height + gap;
    fill_bar(canvas, (canvas.width - bar_width) / 2, y, bar_width, bar_height, canvas.palette.text);
    y += bar_height + gap;
    draw_layout(canvas.context, label.get(), box.x + box.width * 0.05, y, canvas.palette.text);
}

}  // namespace squawk::providers::cards
