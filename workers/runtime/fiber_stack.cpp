#include "workers/runtime/fiber_stack.hpp"

#include <sys/mman.h>

namespace squawk::workers {

boost::context::stack_context FiberStack::allocate() {
    auto context = stack_.allocate();
    // The stack grows down from sp, which is page-aligned. A kernel without MADV_POPULATE_WRITE
    // (before Linux 5.14) refuses it, and the pages then map on first touch as before.
    if (mapped_top_bytes_ > 0 && mapped_top_bytes_ < context.size) {
        auto* top = static_cast<char*>(context.sp);
        ::madvise(top - mapped_top_bytes_, mapped_top_bytes_, MADV_POPULATE_WRITE);
    }
    return context;
}

}  // namespace squawk::workers
