// Recycling: the next occurrence of a post whose rule asks to publish it again, or nothing once
// max_repeats or until is reached.
#pragma once

#include "common/domain/social/post_repository.hpp"

#include <optional>

namespace squawk::social {

// `post` is the occurrence that just finished; the next one repeats its content and accounts
// interval_hours after each of its targets' times. max_repeats counts repeats after the first
// post (recycle_count 1..max_repeats); an occurrence past `until` is not written.
std::optional<NewPost> next_occurrence(const Post& post);

}  // namespace squawk::social
