#include "workers/runtime/fiber_stack.hpp"

#include <sys/mman.h>

namespace squawk::workers {
namespace {

// What a publish task touches of its fiber's stack: 12-16 KiB, read from /proc/<pid>/smaps after
// a 10,000-post burst. Left to page faults, a fresh worker took them in its first burst, thousands
// of fibers at once and each fault dear on a virtual machine, while the burst waited.
constexpr std::size_t kMappedTopBytes = 16 * 1024;

}  // namespace

boost::context::stack_context FiberStack::allocate() {
    auto context = stack_.allocate();
    // The stack grows down from sp, which is page-aligned. A kernel without MADV_POPULATE_WRITE
    // (before Linux 5.14) refuses it, and the pages then map on first touch as before.
    if (context.size > kMappedTopBytes) {
        auto* top = static_cast<char*>(context.sp);
        ::madvise(top - kMappedTopBytes, kMappedTopBytes, MADV_POPULATE_WRITE);
    }
    return context;
}

}  // namespace squawk::workers
