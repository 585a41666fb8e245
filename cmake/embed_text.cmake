# Turns text files (INPUTS, a |-separated list) into a C++ source defining
# squawk::embedded::FUNCTION(): each file's name and text, as the Fragment type HEADER declares.
# FUNCTION and HEADER default to the OpenAPI fragments, merged by the API at start.
if(NOT FUNCTION)
  set(FUNCTION openapi_fragments)
endif()
if(NOT HEADER)
  set(HEADER api/openapi/openapi_document.hpp)
endif()
set(body "")
string(REPLACE "|" ";" inputs "${INPUTS}")
foreach(input IN LISTS inputs)
  file(READ ${input} content)
  get_filename_component(name ${input} NAME)
  string(APPEND body "        {\"${name}\", R\"squawk_embed(${content})squawk_embed\"},\n")
endforeach()
file(WRITE ${OUTPUT} "#include \"${HEADER}\"\n\nnamespace squawk::embedded {\n\nstd::span<const Fragment> ${FUNCTION}() {\n    static constexpr Fragment fragments[] = {\n${body}    };\n    return fragments;\n}\n\n}  // namespace squawk::embedded\n")
