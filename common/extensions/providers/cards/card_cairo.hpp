// Owning handles for the Cairo and Pango objects a card is drawn with, so every path out of a
// render (an exception included) frees them.
#pragma once

#include <cairo.h>
#include <pango/pangocairo.h>

#include <memory>

namespace squawk::providers::cards {

struct SurfaceRelease {
    void operator()(cairo_surface_t* surface) const { cairo_surface_destroy(surface); }
};
struct ContextRelease {
    void operator()(cairo_t* context) const { cairo_destroy(context); }
};
struct PatternRelease {
    void operator()(cairo_pattern_t* pattern) const { cairo_pattern_destroy(pattern); }
};
struct FontDescriptionRelease {
    void operator()(PangoFontDescription* font) const { pango_font_description_free(font); }
};
struct GObjectRelease {
    void operator()(void* object) const { g_object_unref(object); }
};

using SurfacePtr = std::unique_ptr<cairo_surface_t, SurfaceRelease>;
using ContextPtr = std::unique_ptr<cairo_t, ContextRelease>;
using PatternPtr = std::unique_ptr<cairo_pattern_t, PatternRelease>;
using FontDescriptionPtr = std::unique_ptr<PangoFontDescription, FontDescriptionRelease>;
using LayoutPtr = std::unique_ptr<PangoLayout, GObjectRelease>;

}  // namespace squawk::providers::cards
