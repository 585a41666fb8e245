# Turns the OpenAPI fragments (INPUTS, JSON file paths joined by ',') into a C++ source defining
# squawk::embedded::openapi_fragments(): each file's name and text, merged by the API at start.
set(body "")
string(REPLACE "," ";" INPUTS "${INPUTS}")
foreach(input IN LISTS INPUTS)
  file(READ ${input} content)
  get_filename_component(name ${input} NAME)
  string(APPEND body "        {\"${name}\", R\"squawk_embed(${content})squawk_embed\"},\n")
endforeach()
file(WRITE ${OUTPUT} "#include \"api/openapi/openapi_document.hpp\"\n\nnamespace squawk::embedded {\n\nstd::span<const Fragment> openapi_fragments() {\n    static constexpr Fragment fragments[] = {\n${body}    };\n    return fragments;\n}\n\n}  // namespace squawk::embedded\n")
