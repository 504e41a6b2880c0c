// Graph replay for any GPU vendor V (gpu_vendor.hpp): a graph captured from a stream
// (GpuStream::begin_recording ... end_recording, in gpu_stream.hpp), instantiated, launched as
// one unit, its kernel launches given new arguments. Instantiated in the vendor's
// <vendor>_graph.cpp (cuda_graph.cpp, hip_graph.cpp).
#pragma once

#include "backends/kit/backend.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace kjit::gpu {

template <class V>
class GpuStream;

/// A captured graph, instantiated.
template <class V>
class GpuGraph : public backend::Graph {
 public:
  using Device = typename V::Device;
  using Node = typename V::GraphNode;
  using NodeParams = typename V::KernelNodeParams;

  /// `launches`: the kernel nodes of `graph`, in the order they were captured.
  GpuGraph(Device& device, typename V::Graph graph, typename V::GraphExec exec, std::size_t nodes,
           std::vector<Node> launches)
      : device_(device),
        graph_(graph),
        exec_(exec),
        nodes_(nodes),
        launches_(std::move(launches)),
        params_(launches_.size()) {}
  ~GpuGraph() override;
  GpuGraph(const GpuGraph&) = delete;
  GpuGraph& operator=(const GpuGraph&) = delete;
  void launch(backend::Stream& stream) override;
  [[nodiscard]] std::size_t size() const override { return nodes_; }
  void set_arguments(std::size_t launch, const backend::Function& function,
                     const void* const* args) override;

 private:
  Device& device_;
  typename V::Graph graph_;
  typename V::GraphExec exec_;
  std::size_t nodes_;
  std::vector<Node> launches_;
  std::vector<std::optional<NodeParams>> params_;  // each launch's, once asked for
};

template <class V>
GpuGraph<V>::~GpuGraph() {
  try {
    device_.make_current();
    const typename V::Api& api = device_.api();
    const auto a = V::graph_exec_destroy(api)(exec_);
    const auto b = V::graph_destroy(api)(graph_);
    if (a != V::kSuccess || b != V::kSuccess) {
      detail::log().warn("destroying a graph on {}: {}", device_.id(),
                         V::describe(api, a != V::kSuccess ? a : b));
    }
  } catch (const std::exception& e) {
    detail::log().warn("destroying a graph on {}: {}", device_.id(), e.what());
  }
}

template <class V>
void GpuGraph<V>::set_arguments(std::size_t launch, const backend::Function& function,
                                const void* const* args) {
  const typename V::Api& api = device_.api();
  const auto get = V::graph_kernel_node_get_params.required(api, device_.id());
  const auto set = V::graph_exec_kernel_node_set_params.required(api, device_.id());
  const Node node = launches_.at(launch);
  if (node == nullptr) {
    throw BackendError(fmt::format(
        "kjit: {}: the {} did not say which graph node launch {} of kernel '{}' became ({}), so "
        "its arguments cannot be set",
        device_.id(), V::kLibrary, launch, function.name(), V::stream_get_capture_info.name));
  }
  device_.make_current();
  std::optional<NodeParams>& known = params_.at(launch);  // the caller serialises
  if (!known) {
    NodeParams params{};
    V::check(api, get(node, &params), V::graph_kernel_node_get_params.name, device_.id());
    params.extra = nullptr;
    known = params;
  }
  NodeParams params = *known;
  params.kernelParams = const_cast<void**>(args);  // NOLINT: the driver copies, never writes
  V::check(api, set(exec_, node, &params), V::graph_exec_kernel_node_set_params.name, device_.id());
}

template <class V>
void GpuGraph<V>::launch(backend::Stream& stream) {
  const typename V::Stream s = static_cast<GpuStream<V>&>(stream).handle();
  V::check(device_.api(), V::graph_launch(device_.api())(exec_, s), V::graph_launch.name,
           device_.id());
}

}  // namespace kjit::gpu
