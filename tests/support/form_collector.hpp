// A whole multipart/form-data body read through FormReader in pieces of a chosen size, with what
// reached the sink collected: the shape the unit tests and the fuzz target compare.
#pragma once

#include "api/server/multipart_form.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::test {

struct CollectedPart {
    api::FormPartHead head;
    std::string bytes;
    bool ended = false;
};

struct CollectedForm {
    std::vector<CollectedPart> parts;
    std::string error;  // empty when the form was read to its close delimiter

    const CollectedPart* part(std::string_view name) const {
        for (const auto& p : parts)
            if (p.head.name == name) return &p;
        return nullptr;
    }
};

class FormCollector : public api::FormSink {
  public:
    CollectedForm form;

    void part_begins(const api::FormPartHead& head) override { form.parts.push_back({head, {}}); }
    void part_data(std::string_view bytes) override { form.parts.back().bytes.append(bytes); }
    void part_ends() override { form.parts.back().ended = true; }
};

inline CollectedForm read_form(std::string_view body, std::string_view boundary, size_t piece = 0) {
    FormCollector collector;
    api::FormReader reader(boundary, collector);
    bool ok = true;
    if (piece == 0) piece = std::max<size_t>(body.size(), 1);
    for (size_t at = 0; ok && at < body.size(); at += piece)
        ok = reader.feed(body.substr(at, piece));
    if (ok) reader.finish();
    collector.form.error = reader.error();
    return collector.form;
}

}  // namespace squawk::test
