// The posting-cap check and send mark of every publishing fiber of a process, written by one
// thread: the requests that arrive while a batch commits go together in the next transaction
// (accounts locked in id order, one count, one UPDATE of the marks).
#pragma once

#include "common/db/mysql_pool.hpp"
#include "common/social/posting_caps.hpp"

#include <boost/fiber/future.hpp>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace squawk::workers::publish {

struct SendRequest {
    long long target_id = 0;
    long long account_id = 0;
    std::string platform;
    bool sandbox = false;  // checked against the caps but never marked: nothing is sent
};

class SendGate {
  public:
    explicit SendGate(db::MysqlPool& mysql);
    ~SendGate();
    SendGate(const SendGate&) = delete;
    SendGate& operator=(const SendGate&) = delete;

    // From a fiber: parks it until the batch holding the request committed. Nothing when the
    // send may go (its mark is committed), else the cap reached.
    std::optional<social::CapReached> admit(SendRequest request);

  private:
    struct Pending {
        SendRequest request;
        std::shared_ptr<boost::fibers::promise<std::optional<social::CapReached>>> promise;
    };

    void loop();
    void write(std::deque<Pending>& batch);

    db::MysqlPool& mysql_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Pending> pending_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace squawk::workers::publish
