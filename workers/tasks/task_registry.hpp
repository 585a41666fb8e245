// Job type name -> handler. One registry per worker process; handlers are shared by all fibers,
// so a handler keeps no per-run state in members.
#pragma once

#include "workers/tasks/task_handler.hpp"

#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace squawk::workers {

class TaskRegistry {
  public:
    void add(std::string_view type_name, std::shared_ptr<TaskHandler> handler);
    // Null when no handler runs this type.
    TaskHandler* find(std::string_view type_name) const;

  private:
    std::map<std::string, std::shared_ptr<TaskHandler>, std::less<>> handlers_;
};

// Every job type Squawk ships; adding a type adds one line in builtin_tasks.cpp.
TaskRegistry builtin_tasks();

}  // namespace squawk::workers
