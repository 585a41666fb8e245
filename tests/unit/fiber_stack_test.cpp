// The stacks of a pool's fibers: in a pool that asks for it (publish), the pages a task uses are
// resident from the start, so a burst of tasks on a fresh worker does not stop at page faults
// for each fiber; the rest of the stack, and every page of the other pools' stacks, stays
// reserved address space until used.
#include "workers/runtime/fiber_stack.hpp"

#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <vector>

using squawk::workers::FiberStack;

namespace {

// Whether each page of [from, to) is resident, lowest address first.
std::vector<bool> resident_pages(char* from, char* to) {
    const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> flags((to - from) / page);
    REQUIRE(::mincore(from, to - from, flags.data()) == 0);
    std::vector<bool> resident;
    for (auto f : flags) resident.push_back((f & 1) != 0);
    return resident;
}

}  // namespace

TEST_CASE("a fiber stack has the top it asks for resident and the rest only reserved") {
    FiberStack stacks(256 * 1024, 16 * 1024);
    auto context = stacks.allocate();
    auto* top = static_cast<char*>(context.sp);

    const auto near_top = resident_pages(top - 16 * 1024, top);
    CHECK(near_top == std::vector<bool>(near_top.size(), true));
    const auto below = resident_pages(top - 64 * 1024, top - 16 * 1024);
    CHECK(below == std::vector<bool>(below.size(), false));

    stacks.deallocate(context);
}

TEST_CASE("a fiber stack that asks for nothing resident starts with nothing resident") {
    FiberStack stacks(256 * 1024);
    auto context = stacks.allocate();
    auto* top = static_cast<char*>(context.sp);

    const auto pages = resident_pages(top - 64 * 1024, top);
    CHECK(pages == std::vector<bool>(pages.size(), false));

    stacks.deallocate(context);
}
