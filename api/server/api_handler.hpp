// The one Pistache handler of squawk-api: routes, authenticates, parses and answers every
// request through the route table, so each rule (envelope, errors, keep-alive, access log)
// is written once. It reads each connection's bytes itself (RequestStream): requests are framed
// and parsed where they lie, and uploads go to disk as they arrive; Pistache's parser sees only
// what the stream cannot frame with certainty.
#pragma once

#include "api/server/received_upload.hpp"
#include "api/server/request_stream.hpp"
#include "api/server/router.hpp"
#include "api/server/services.hpp"
#include "api/server/upload_receiver.hpp"

#include <pistache/http.h>

#include <memory>

namespace squawk::api {

class ApiHandler : public Pistache::Http::Handler {
  public:
    HTTP_PROTOTYPE(ApiHandler)

    ApiHandler(Services& services, std::shared_ptr<const Router> router,
               const UploadLimits& limits);
    // Each reactor thread's copy has a parser of its own.
    ApiHandler(const ApiHandler& prototype);

    // Pistache parses only what the request stream cannot frame; its request is answered as
    // the stream's are.
    void onRequest(const Pistache::Http::Request& request,
                   Pistache::Http::ResponseWriter response) override;

  private:
    class Parser;

    void serve(const RequestHead& head, RequestBody body,
               const std::shared_ptr<Pistache::Tcp::Peer>& peer);
    void onInput(const char* buffer, size_t length,
                 const std::shared_ptr<Pistache::Tcp::Peer>& peer) override;
    void onDisconnection(const std::shared_ptr<Pistache::Tcp::Peer>& peer) override;
    // What the connection's timeout now counts: a request arriving, or the wait for the next one.
    enum class Activity { request, idle };
    static void restart_clock(const std::shared_ptr<Pistache::Tcp::Peer>& peer, Activity activity);
    std::unique_ptr<BodyReceiver> upload_receiver(const RequestHead& head);
    // Whether the head presents a key the API knows (not revoked); the request itself is
    // authenticated again, and rate-limited, when Pistache hands it over.
    bool presents_known_key(const RequestHead& head);

    Services* services_;
    std::shared_ptr<const Router> router_;
    std::shared_ptr<UploadRegistry> uploads_;
    std::shared_ptr<const UploadLimits> limits_;
    std::shared_ptr<Parser> parser_;
};

}  // namespace squawk::api
