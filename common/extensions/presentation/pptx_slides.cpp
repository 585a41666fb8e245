#include "common/extensions/presentation/pptx_slides.hpp"

#include "common/core/text/concat.hpp"
#include "common/extensions/presentation/pptx_fixed_parts.hpp"
#include "common/extensions/presentation/slide_layout.hpp"
#include "common/extensions/presentation/xml_text.hpp"

#include <cmath>

namespace squawk::presentation {
namespace {

using text::concat;

// DrawingML lengths are EMUs: 12,700 to a point.
std::string emu(double points) {
    return std::to_string(std::llround(points * 12700));
}

std::string transform(const Frame& f) {
    return concat({"<a:xfrm><a:off x=\"", emu(f.x), "\" y=\"", emu(f.y), "\"/><a:ext cx=\"",
                   emu(f.width), "\" cy=\"", emu(f.height), "\"/></a:xfrm>"});
}

std::string shape_start(int id, const char* name, bool text_box) {
    return concat({"<p:sp><p:nvSpPr><p:cNvPr id=\"", std::to_string(id), "\" name=\"", name,
                   "\"/><p:cNvSpPr", text_box ? " txBox=\"1\"" : "", "/><p:nvPr/></p:nvSpPr>"});
}

std::string run(const Deck& deck, const std::string& text, double points, bool bold,
                const std::string& color) {
    return concat({"<a:r><a:rPr lang=\"en-US\" sz=\"", std::to_string(std::lround(points * 100)),
                   "\" b=\"", bold ? "1" : "0", "\" dirty=\"0\"><a:solidFill><a:srgbClr val=\"",
                   color, "\"/></a:solidFill><a:latin typeface=\"", xml_text(deck.font),
                   "\"/></a:rPr><a:t>", xml_text(text), "</a:t></a:r>"});
}

// A text box whose paragraphs shrink to fit (normAutofit) and sit at `anchor` ("t" or "b").
std::string text_box(int id, const char* name, const Frame& frame, const char* anchor,
                     const std::string& paragraphs) {
    return concat({shape_start(id, name, true), "<p:spPr>", transform(frame),
                   "<a:prstGeom prst=\"rect\"><a:avLst/></a:prstGeom><a:noFill/></p:spPr>"
                   "<p:txBody><a:bodyPr wrap=\"square\" lIns=\"0\" tIns=\"0\" rIns=\"0\" "
                   "bIns=\"0\" anchor=\"",
                   anchor, "\"><a:normAutofit/></a:bodyPr><a:lstStyle/>", paragraphs,
                   "</p:txBody></p:sp>"});
}

std::string bar(int id, const Frame& frame, const std::string& color) {
    return concat({shape_start(id, "Accent", false), "<p:spPr>", transform(frame),
                   "<a:prstGeom prst=\"rect\"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr "
                   "val=\"",
                   color, "\"/></a:solidFill><a:ln><a:noFill/></a:ln></p:spPr></p:sp>"});
}

std::string picture(int id, const Frame& frame, const std::string& relationship) {
    return concat({"<p:pic><p:nvPicPr><p:cNvPr id=\"", std::to_string(id),
                   "\" name=\"Picture\"/><p:cNvPicPr><a:picLocks noChangeAspect=\"1\"/>"
                   "</p:cNvPicPr><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed=\"",
                   relationship, "\"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr>",
                   transform(frame),
                   "<a:prstGeom prst=\"rect\"><a:avLst/></a:prstGeom></p:spPr></p:pic>"});
}

std::string bullet(const Deck& deck, const std::string& text) {
    return concat(
        {"<a:p><a:pPr marL=\"342900\" indent=\"-342900\"><a:spcBef><a:spcPts "
         "val=\"900\"/></a:spcBef><a:buClr><a:srgbClr val=\"",
         deck.colors.accent,
         "\"/></a:buClr><a:buFont typeface=\"Arial\"/><a:buChar char=\"&#8226;\"/>"
         "</a:pPr>",
         run(deck, text, kBulletSize, false, deck.colors.text), "</a:p>"});
}

std::string slide(const Deck& deck, const std::string& shapes) {
    return concat({kXmlDeclaration, "<p:sld", kPmlNamespaces, "><p:cSld>",
                   background_xml(deck.colors.background), "<p:spTree>", shape_tree_start(), shapes,
                   "</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr>"
                   "</p:sld>"});
}

}  // namespace

std::string title_slide_xml(const Deck& deck) {
    const std::string title =
        concat({"<a:p>", run(deck, deck.title, kDeckTitleSize, true, deck.colors.title), "</a:p>"});
    return slide(deck, concat({text_box(2, "Title", kDeckTitleFrame, "b", title),
                               bar(3, kDeckTitleBar, deck.colors.accent)}));
}

std::string content_slide_xml(const Deck& deck, const DeckSlide& s,
                              const std::string& image_relationship) {
    const std::string title =
        concat({"<a:p>", run(deck, s.title, kSlideTitleSize, true, deck.colors.title), "</a:p>"});
    std::string shapes = text_box(2, "Title", kSlideTitleFrame, "b", title);
    shapes += bar(3, kSlideTitleBar, deck.colors.accent);
    if (!s.bullets.empty()) {
        std::string paragraphs;
        for (const auto& b : s.bullets) paragraphs += bullet(deck, b);
        shapes +=
            text_box(4, "Body", s.image ? kBodyBesideImageFrame : kBodyFrame, "t", paragraphs);
    }
    if (s.image)
        shapes +=
            picture(5, fit_image(kImageFrame, s.image->width, s.image->height), image_relationship);
    return slide(deck, shapes);
}

}  // namespace squawk::presentation
