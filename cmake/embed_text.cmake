# Turns a text file into a C++ source defining squawk::embedded::openapi_document().
file(READ ${INPUT} content)
set(delim "squawk_embed")
file(WRITE ${OUTPUT} "#include <string_view>\nnamespace squawk::embedded {\nstd::string_view openapi_document() {\n    static constexpr std::string_view text = R\"${delim}(${content})${delim}\";\n    return text;\n}\n}  // namespace squawk::embedded\n")
