// The stacks of a pool's long-lived fibers: guarded like boost's protected_fixedsize_stack, with
// the top `mapped_top_bytes` (what a task of the pool uses, none by default) already mapped when
// the fiber is made.
#pragma once

#include <boost/context/stack_context.hpp>
#include <boost/fiber/protected_fixedsize_stack.hpp>

#include <cstddef>

namespace squawk::workers {

class FiberStack {
  public:
    explicit FiberStack(std::size_t bytes, std::size_t mapped_top_bytes = 0)
        : stack_(bytes), mapped_top_bytes_(mapped_top_bytes) {}

    boost::context::stack_context allocate();
    void deallocate(boost::context::stack_context& context) noexcept { stack_.deallocate(context); }

  private:
    boost::fibers::protected_fixedsize_stack stack_;
    std::size_t mapped_top_bytes_;
};

}  // namespace squawk::workers
