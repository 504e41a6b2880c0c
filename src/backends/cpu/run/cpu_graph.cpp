#include "backends/cpu/run/cpu_graph.hpp"

#include "backends/cpu/run/cpu_launch_records.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace kjit::cpu {

CpuGraph::CpuGraph(std::vector<CpuStream::Task> tasks)
    : tasks_(std::make_shared<Tasks>()), arguments_(std::make_shared<ArgumentSet>()) {
  tasks_->list = std::move(tasks);
  for (std::size_t i = 0; i < tasks_->list.size(); ++i) {
    if (tasks_->list[i].work != nullptr) {
      tasks_->launches.push_back(i);
    }
  }
}

CpuGraph::Tasks::~Tasks() {
  for (CpuStream::Task& t : list) {
    if (t.work != nullptr) {
      t.work->done();
    }
  }
}

void CpuGraph::set_arguments(std::size_t launch, const backend::Function& function,
                             const void* const* args) {
  const std::size_t task = tasks_->launches.at(launch);
  const std::lock_guard lock(arguments_mutex_);
  if (arguments_.use_count() > 1) {  // a queued replay holds it: it keeps what it has
    arguments_ = std::make_shared<ArgumentSet>(*arguments_);
  }
  ArgumentSet& set = *arguments_;
  ++set.generation;
  auto it = std::find_if(set.launches.begin(), set.launches.end(),
                         [&](const LaunchArguments& a) { return a.task == task; });
  if (it == set.launches.end()) {
    it = set.launches.insert(set.launches.end(),
                             LaunchArguments{.task = task, .bytes = {}, .sizes = {}});
    for (const backend::ParamInfo& p : function.params()) {
      it->sizes.push_back(p.size);
    }
  }
  it->bytes.clear();
  for (std::size_t i = 0; i < it->sizes.size(); ++i) {
    const auto* bytes = static_cast<const std::byte*>(args[i]);
    it->bytes.insert(it->bytes.end(), bytes, bytes + it->sizes[i]);
  }
}

void CpuGraph::launch(backend::Stream& stream) {
  std::shared_ptr<Tasks> tasks = tasks_;
  std::shared_ptr<const ArgumentSet> arguments;
  {
    const std::lock_guard lock(arguments_mutex_);
    arguments = arguments_;
  }
  static_cast<CpuStream&>(stream).enqueue(
      [tasks, arguments] {
        const std::lock_guard replay(tasks->replaying);
        if (tasks->in != arguments->generation) {
          for (const LaunchArguments& set : arguments->launches) {
            CpuLaunch& launch = static_cast<QueuedLaunch&>(*tasks->list[set.task].work).launch;
            const std::byte* from = set.bytes.data();
            for (std::size_t i = 0; i < set.sizes.size(); ++i) {
              std::memcpy(launch.argument_pointers[i], from, set.sizes[i]);
              from += set.sizes[i];
            }
          }
          tasks->in = arguments->generation;
        }
        for (CpuStream::Task& t : tasks->list) {
          if (t.work != nullptr) {
            t.work->run();
          } else {
            t.run();
          }
        }
      },
      fmt::format("a replay of a recorded graph of {} operations", tasks->list.size()));
}

}  // namespace kjit::cpu
