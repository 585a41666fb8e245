#include "workers/tasks/task_registry.hpp"

#include <stdexcept>

namespace squawk::workers {

void TaskRegistry::add(std::string_view type_name, std::shared_ptr<TaskHandler> handler) {
    if (!handler) throw std::invalid_argument("null handler for " + std::string(type_name));
    handlers_[std::string(type_name)] = std::move(handler);
}

TaskHandler* TaskRegistry::find(std::string_view type_name) const {
    const auto it = handlers_.find(type_name);
    return it == handlers_.end() ? nullptr : it->second.get();
}

}  // namespace squawk::workers
