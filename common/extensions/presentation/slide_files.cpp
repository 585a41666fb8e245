#include "common/extensions/presentation/slide_files.hpp"

#include "common/extensions/presentation/slide_drawing.hpp"
#include "common/extensions/presentation/slide_layout.hpp"
#include "common/extensions/providers/cards/card_cairo.hpp"

#include <cairo-pdf.h>

#include <stdexcept>
#include <string>

namespace squawk::presentation {
namespace {

using providers::cards::ContextPtr;
using providers::cards::SurfacePtr;

void check(cairo_status_t status, const std::filesystem::path& path) {
    if (status != CAIRO_STATUS_SUCCESS)
        throw std::runtime_error("cannot write " + path.string() + ": " +
                                 cairo_status_to_string(status));
}

}  // namespace

void write_pdf(const Deck& deck, const std::filesystem::path& path) {
    SurfacePtr surface(cairo_pdf_surface_create(path.c_str(), kPageWidth, kPageHeight));
    check(cairo_surface_status(surface.get()), path);
    cairo_pdf_surface_set_metadata(surface.get(), CAIRO_PDF_METADATA_TITLE, deck.title.c_str());
    cairo_pdf_surface_set_metadata(surface.get(), CAIRO_PDF_METADATA_CREATOR, "Squawk");
    {
        const ContextPtr context(cairo_create(surface.get()));
        for (size_t page = 0; page < deck.page_count(); ++page) {
            draw_page(context.get(), deck, page);
            cairo_show_page(context.get());
        }
        check(cairo_status(context.get()), path);
    }
    // Finishing writes the file's tail; a full disk shows up here.
    cairo_surface_finish(surface.get());
    check(cairo_surface_status(surface.get()), path);
}

void write_thumbnail(const Deck& deck, size_t page, const std::filesystem::path& path) {
    SurfacePtr surface(
        cairo_image_surface_create(CAIRO_FORMAT_RGB24, kThumbnailWidth, kThumbnailHeight));
    check(cairo_surface_status(surface.get()), path);
    {
        const ContextPtr context(cairo_create(surface.get()));
        cairo_scale(context.get(), kThumbnailWidth / kPageWidth, kThumbnailHeight / kPageHeight);
        draw_page(context.get(), deck, page);
        check(cairo_status(context.get()), path);
    }
    cairo_surface_flush(surface.get());
    check(cairo_surface_write_to_png(surface.get(), path.c_str()), path);
}

}  // namespace squawk::presentation
