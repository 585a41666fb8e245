#include "common/extensions/presentation/pptx_fixed_parts.hpp"

#include "common/core/text/concat.hpp"
#include "common/extensions/presentation/xml_text.hpp"

namespace squawk::presentation {
namespace {

using text::concat;

// A theme needs three of each style; the deck draws with explicit colours, so they stay plain.
std::string format_scheme() {
    std::string fills;
    for (int i = 0; i < 3; ++i) fills += "<a:solidFill><a:schemeClr val=\"phClr\"/></a:solidFill>";
    std::string lines;
    for (const int width : {6350, 12700, 19050})
        lines += concat({"<a:ln w=\"", std::to_string(width),
                         "\"><a:solidFill><a:schemeClr val=\"phClr\"/></a:solidFill></a:ln>"});
    std::string effects;
    for (int i = 0; i < 3; ++i) effects += "<a:effectStyle><a:effectLst/></a:effectStyle>";
    return concat({"<a:fmtScheme name=\"Squawk\"><a:fillStyleLst>", fills,
                   "</a:fillStyleLst><a:lnStyleLst>", lines, "</a:lnStyleLst><a:effectStyleLst>",
                   effects, "</a:effectStyleLst><a:bgFillStyleLst>", fills,
                   "</a:bgFillStyleLst></a:fmtScheme>"});
}

std::string level_style(int points) {
    return concat({"<a:lvl1pPr><a:defRPr sz=\"", std::to_string(points * 100), "\"/></a:lvl1pPr>"});
}

std::string scheme_color(const char* name, const std::string& value) {
    return concat({"<a:", name, "><a:srgbClr val=\"", value, "\"/></a:", name, ">"});
}

}  // namespace

std::string relationships_xml(const std::vector<Relationship>& relationships) {
    std::string xml = concat(
        {kXmlDeclaration,
         "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"});
    for (const auto& r : relationships) {
        const bool full = r.type.starts_with("http");
        xml += concat(
            {"<Relationship Id=\"", r.id, "\" Type=\"",
             full ? "" : "http://schemas.openxmlformats.org/officeDocument/2006/relationships/",
             r.type, "\" Target=\"", xml_text(r.target), "\"/>"});
    }
    return xml + "</Relationships>";
}

std::string shape_tree_start() {
    return "<p:nvGrpSpPr><p:cNvPr id=\"1\" name=\"\"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>"
           "<p:grpSpPr><a:xfrm><a:off x=\"0\" y=\"0\"/><a:ext cx=\"0\" cy=\"0\"/>"
           "<a:chOff x=\"0\" y=\"0\"/><a:chExt cx=\"0\" cy=\"0\"/></a:xfrm></p:grpSpPr>";
}

std::string background_xml(const std::string& color) {
    return concat({"<p:bg><p:bgPr><a:solidFill><a:srgbClr val=\"", color,
                   "\"/></a:solidFill><a:effectLst/></p:bgPr></p:bg>"});
}

std::string slide_master_xml(const Deck& deck) {
    return concat(
        {kXmlDeclaration, "<p:sldMaster", kPmlNamespaces, "><p:cSld>",
         background_xml(deck.colors.background), "<p:spTree>", shape_tree_start(),
         "</p:spTree></p:cSld>"
         "<p:clrMap bg1=\"lt1\" tx1=\"dk1\" bg2=\"lt2\" tx2=\"dk2\" accent1=\"accent1\" "
         "accent2=\"accent2\" accent3=\"accent3\" accent4=\"accent4\" accent5=\"accent5\" "
         "accent6=\"accent6\" hlink=\"hlink\" folHlink=\"folHlink\"/>"
         "<p:sldLayoutIdLst><p:sldLayoutId id=\"2147483649\" r:id=\"rId1\"/></p:sldLayoutIdLst>"
         "<p:txStyles><p:titleStyle>",
         level_style(44), "</p:titleStyle><p:bodyStyle>", level_style(24),
         "</p:bodyStyle><p:otherStyle>", level_style(18),
         "</p:otherStyle></p:txStyles></p:sldMaster>"});
}

std::string slide_layout_xml() {
    return concat({kXmlDeclaration, "<p:sldLayout", kPmlNamespaces,
                   " type=\"blank\" preserve=\"1\"><p:cSld name=\"Blank\"><p:spTree>",
                   shape_tree_start(),
                   "</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr>"
                   "</p:sldLayout>"});
}

std::string theme_xml(const Deck& deck) {
    const auto& c = deck.colors;
    const std::string fonts = concat({"<a:latin typeface=\"", xml_text(deck.font),
                                      "\"/><a:ea typeface=\"\"/><a:cs typeface=\"\"/>"});
    return concat({kXmlDeclaration,
                   "<a:theme xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" "
                   "name=\"Squawk\"><a:themeElements><a:clrScheme name=\"Squawk\">",
                   scheme_color("dk1", c.text),
                   scheme_color("lt1", c.background),
                   scheme_color("dk2", c.title),
                   scheme_color("lt2", c.background),
                   scheme_color("accent1", c.accent),
                   scheme_color("accent2", c.accent),
                   scheme_color("accent3", c.accent),
                   scheme_color("accent4", c.accent),
                   scheme_color("accent5", c.accent),
                   scheme_color("accent6", c.accent),
                   scheme_color("hlink", c.accent),
                   scheme_color("folHlink", c.accent),
                   "</a:clrScheme><a:fontScheme name=\"Squawk\"><a:majorFont>",
                   fonts,
                   "</a:majorFont><a:minorFont>",
                   fonts,
                   "</a:minorFont></a:fontScheme>",
                   format_scheme(),
                   "</a:themeElements></a:theme>"});
}

}  // namespace squawk::presentation
