#include "tests/support/event_sink.hpp"

#include "common/domain/events/event_catalog.hpp"
#include "common/domain/webhooks/endpoint_repository.hpp"

namespace squawk::testing {

void hold_every_event(db::Session& s, long long workspace_id) {
    const auto catalog = events::catalog();
    const std::vector<std::string> every(catalog.begin(), catalog.end());
    const auto endpoint = webhooks::EndpointRepository::insert(
        s, workspace_id, "https://sink.example/events", every, "sealed");
    s.execute("UPDATE webhook_endpoints SET status = 'failing' WHERE id = ?", {endpoint.id});
}

void hold_every_event(Stack& stack, long long workspace_id) {
    stack.db().run([&](db::Session& s) { hold_every_event(s, workspace_id); });
}

}  // namespace squawk::testing
