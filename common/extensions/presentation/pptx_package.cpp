#include "common/extensions/presentation/pptx_package.hpp"

#include "common/core/text/concat.hpp"
#include "common/extensions/presentation/pptx_fixed_parts.hpp"
#include "common/extensions/presentation/pptx_slides.hpp"
#include "common/extensions/presentation/xml_text.hpp"

namespace squawk::presentation {
namespace {

using text::concat;

constexpr const char* kContentTypePrefix = "application/vnd.openxmlformats-officedocument.";

struct TypedPart {
    PackagePart part;
    std::string content_type;  // empty: covered by its extension's default
};

std::string content_types_xml(const std::vector<TypedPart>& parts) {
    std::string xml =
        concat({kXmlDeclaration,
                "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
                "<Default Extension=\"rels\" "
                "ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
                "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
                "<Default Extension=\"png\" ContentType=\"image/png\"/>"
                "<Default Extension=\"jpeg\" ContentType=\"image/jpeg\"/>"});
    for (const auto& p : parts)
        if (!p.content_type.empty())
            xml += concat({"<Override PartName=\"/", p.part.name, "\" ContentType=\"",
                           p.content_type, "\"/>"});
    return xml + "</Types>";
}

std::string presentation_xml(size_t pages) {
    std::string slides;
    for (size_t i = 0; i < pages; ++i)
        slides += concat({"<p:sldId id=\"", std::to_string(256 + i), "\" r:id=\"rId",
                          std::to_string(3 + i), "\"/>"});
    return concat({kXmlDeclaration, "<p:presentation", kPmlNamespaces,
                   " saveSubsetFonts=\"1\"><p:sldMasterIdLst><p:sldMasterId id=\"2147483648\" "
                   "r:id=\"rId1\"/></p:sldMasterIdLst><p:sldIdLst>",
                   slides,
                   "</p:sldIdLst><p:sldSz cx=\"12192000\" cy=\"6858000\"/>"
                   "<p:notesSz cx=\"6858000\" cy=\"9144000\"/></p:presentation>"});
}

std::string core_xml(const Deck& deck) {
    return concat(
        {kXmlDeclaration,
         "<cp:coreProperties "
         "xmlns:cp=\"http://schemas.openxmlformats.org/package/2006/metadata/core-properties\" "
         "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
         "xmlns:dcterms=\"http://purl.org/dc/terms/\" "
         "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"><dc:title>",
         xml_text(deck.title), "</dc:title><dc:creator>Squawk</dc:creator></cp:coreProperties>"});
}

std::string app_xml(size_t pages) {
    return concat(
        {kXmlDeclaration,
         "<Properties "
         "xmlns=\"http://schemas.openxmlformats.org/officeDocument/2006/extended-properties\" "
         "xmlns:vt=\"http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes\">"
         "<Application>Squawk</Application><Slides>",
         std::to_string(pages), "</Slides></Properties>"});
}

std::string typed(const char* kind) {
    return concat({kContentTypePrefix, kind, "+xml"});
}

}  // namespace

std::vector<PackagePart> pptx_parts(const Deck& deck) {
    const size_t pages = deck.page_count();
    std::vector<TypedPart> parts;
    const auto add = [&parts](std::string name, std::string content, std::string type = "") {
        parts.push_back({{std::move(name), std::move(content)}, std::move(type)});
    };
    add("_rels/.rels",
        relationships_xml({{"rId1", "officeDocument", "ppt/presentation.xml"},
                           {"rId2",
                            "http://schemas.openxmlformats.org/package/2006/relationships/"
                            "metadata/core-properties",
                            "docProps/core.xml"},
                           {"rId3", "extended-properties", "docProps/app.xml"}}));
    add("docProps/core.xml", core_xml(deck),
        "application/vnd.openxmlformats-package.core-properties+xml");
    add("docProps/app.xml", app_xml(pages), typed("extended-properties"));

    std::vector<Relationship> presentation_rels{
        {"rId1", "slideMaster", "slideMasters/slideMaster1.xml"},
        {"rId2", "theme", "theme/theme1.xml"}};
    for (size_t i = 0; i < pages; ++i)
        presentation_rels.push_back({concat({"rId", std::to_string(3 + i)}), "slide",
                                     concat({"slides/slide", std::to_string(1 + i), ".xml"})});
    add("ppt/presentation.xml", presentation_xml(pages), typed("presentationml.presentation.main"));
    add("ppt/_rels/presentation.xml.rels", relationships_xml(presentation_rels));
    add("ppt/slideMasters/slideMaster1.xml", slide_master_xml(deck),
        typed("presentationml.slideMaster"));
    add("ppt/slideMasters/_rels/slideMaster1.xml.rels",
        relationships_xml({{"rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"},
                           {"rId2", "theme", "../theme/theme1.xml"}}));
    add("ppt/slideLayouts/slideLayout1.xml", slide_layout_xml(),
        typed("presentationml.slideLayout"));
    add("ppt/slideLayouts/_rels/slideLayout1.xml.rels",
        relationships_xml({{"rId1", "slideMaster", "../slideMasters/slideMaster1.xml"}}));
    add("ppt/theme/theme1.xml", theme_xml(deck), typed("theme"));

    const std::vector<Relationship> layout{
        {"rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"}};
    add("ppt/slides/slide1.xml", title_slide_xml(deck), typed("presentationml.slide"));
    add("ppt/slides/_rels/slide1.xml.rels", relationships_xml(layout));
    for (size_t i = 0; i < deck.slides.size(); ++i) {
        const auto& s = deck.slides[i];
        const std::string number = std::to_string(2 + i);
        auto relationships = layout;
        if (s.image) {
            const std::string media = concat({"image", number, ".", s.image->extension});
            relationships.push_back({"rId2", "image", concat({"../media/", media})});
            add(concat({"ppt/media/", media}), s.image->bytes);
        }
        add(concat({"ppt/slides/slide", number, ".xml"}), content_slide_xml(deck, s, "rId2"),
            typed("presentationml.slide"));
        add(concat({"ppt/slides/_rels/slide", number, ".xml.rels"}),
            relationships_xml(relationships));
    }

    std::vector<PackagePart> out{{"[Content_Types].xml", content_types_xml(parts)}};
    for (auto& p : parts) out.push_back(std::move(p.part));
    return out;
}

}  // namespace squawk::presentation
