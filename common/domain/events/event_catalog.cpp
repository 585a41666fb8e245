#include "common/domain/events/event_catalog.hpp"

#include <algorithm>
#include <array>

namespace squawk::events {
namespace {

constexpr std::array<std::string_view, 24> kNames{
    "post.published",   "post.partial",     "post.failed",           "post.scheduled",
    "post.cancelled",   "post.recycled",    "post.external.created", "post.external.updated",
    "comment.received", "message.received", "message.sent",          "message.delivered",
    "message.read",     "message.failed",   "conversation.started",  "reaction.received",
    "review.new",       "review.updated",   "contact.created",       "task_created",
    "task_completed",   "webhook.test",     "job.completed",         "job.failed",
};

}  // namespace

std::span<const std::string_view> catalog() {
    return kNames;
}

bool is_known(std::string_view name) {
    return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

}  // namespace squawk::events
