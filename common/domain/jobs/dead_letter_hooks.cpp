#include "common/domain/jobs/dead_letter_hooks.hpp"

#include <map>
#include <mutex>
#include <string>

namespace squawk::jobs {
namespace {

struct Hooks {
    std::mutex mutex;
    std::map<std::string, DeadLetterHook, std::less<>> by_type;
};

Hooks& hooks() {
    static Hooks h;
    return h;
}

}  // namespace

void on_dead_letter(std::string_view type, DeadLetterHook hook) {
    std::lock_guard lock(hooks().mutex);
    hooks().by_type[std::string(type)] = hook;
}

void run_dead_letter_hook(db::Session& s, const Job& job) {
    DeadLetterHook hook = nullptr;
    {
        std::lock_guard lock(hooks().mutex);
        const auto found = hooks().by_type.find(job.type);
        if (found != hooks().by_type.end()) hook = found->second;
    }
    if (hook) hook(s, job);
}

}  // namespace squawk::jobs
