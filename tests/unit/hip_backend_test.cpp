// The HIP backend driven through its one seam, the runtime's function table, by a fake runtime:
// no AMD GPU is available to this project, so this is as far as its runtime paths can be tested
// (docs/hip-backend.md). The fake keeps "device memory" in host memory and runs no code: it
// records the code object it is given and each launch's grid, block and argument values, which
// the tests compare with what they passed. A stream that captures turns launches into kernel nodes
// of a graph, whose replays record their nodes' launches the same way. Code objects come from the
// real hipRTC (or LLVM, from bitcode) and are disassembled with llvm-objdump for the kernel's
// symbol and instructions.
#include "backends/hip/hip_backend.hpp"
#include "backends/hip/amdgpu_target.hpp"
#include "backends/hip/code_object.hpp"
#include "backends/hip/hip_runtime_api.hpp"
#include "backends/hip/hiprtc_api.hpp"
#include "kernel_files.hpp"

#include <kjit/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

namespace kjit::hip {
namespace {

struct FakeRuntime {
  hipError_t init = hipSuccess;
  hipError_t malloc_result = hipSuccess;
  std::string arch = "gfx90a:sramecc+:xnack-";
  bool r0600 = false;
  int current = -1;
  int set_device_calls = 0;
  int modules_loaded = 0;
  std::string function_asked;              // the name of the last hipModuleGetFunction
  std::vector<std::string> globals_asked;  // the names hipModuleGetGlobal was asked for
  int modules_unloaded = 0;
  int launches = 0;
  std::size_t live_allocations = 0;
  std::vector<std::uint8_t> image;  // the code object of the last hipModuleLoadData
  /// The last hipModuleLaunchKernel, its arguments read as vadd's (three pointers and an int).
  struct Launch {
    std::array<unsigned, 3> grid{};
    std::array<unsigned, 3> block{};
    unsigned shared = 0;
    std::array<std::uint64_t, 3> pointers{};
    int n = 0;
    const void* func = nullptr;
    bool operator==(const Launch&) const = default;
    friend void PrintTo(const Launch& l, std::ostream* out) {
      *out << "{func " << l.func << ", grid " << l.grid[0] << "x" << l.grid[1] << "x" << l.grid[2]
           << ", block " << l.block[0] << "x" << l.block[1] << "x" << l.block[2] << ", shared "
           << l.shared << ", pointers " << l.pointers[0] << " " << l.pointers[1] << " "
           << l.pointers[2] << ", n " << l.n << "}";
    }
  } last_launch;

  // The flags the backend passed: the last stream's, event's and capture's.
  unsigned stream_flags = ~0U;
  unsigned event_flags = ~0U;
  int capture_mode = -1;
  int streams_created = 0;

  /// A kernel node: its launch as captured, the argument values copied (as the runtime copies
  /// them), and the pointers to them that hipGraphKernelNodeGetParams hands out. Its handle is its
  /// address (a deque keeps it in place).
  struct KernelNode {
    Launch launch;
    std::array<void*, 4> args{};
  };
  std::deque<KernelNode> nodes;
  /// Each stream capturing: the nodes captured on it so far, in order.
  std::map<hipStream_t, std::vector<hipGraphNode_t>> captures;
  int capture_info_calls = 0;
  std::vector<std::vector<hipGraphNode_t>> graphs;  // a graph's handle is its index + 1
  /// An instantiated graph: its nodes and their launches as the exec has them now (set apart from
  /// the graph's by hipGraphExecKernelNodeSetParams). Its handle is its index + 1.
  struct Exec {
    std::vector<hipGraphNode_t> nodes;
    std::vector<Launch> launches;
  };
  std::vector<Exec> execs;
  int graph_launches = 0;
  std::vector<Launch> replayed;  // each node each hipGraphLaunch ran, in order
  int execs_destroyed = 0;
  int graphs_destroyed = 0;
  int get_params_calls = 0;
  hipError_t get_params_failure = hipSuccess;  // what the next hipGraphKernelNodeGetParams returns
  /// Each hipGraphExecKernelNodeSetParams: what it was given, the argument values it pointed to,
  /// and the device current then.
  struct SetParams {
    hipGraphExec_t exec = nullptr;
    hipGraphNode_t node = nullptr;
    hipKernelNodeParams params{};
    Launch launch;
    int device = -1;
  };
  std::vector<SetParams> set_params;
};
FakeRuntime fake;
constexpr int kModule = 1;
constexpr int kFunction = 2;
constexpr int kStream = 3;
constexpr hipError_t kInvalidValue = 1;
constexpr hipError_t kIllegalState = 401;
/// What hipGraphKernelNodeGetParams says `extra` is: not null, as a runtime that packed the
/// arguments itself might say; hipGraphExecKernelNodeSetParams must not get it back.
void* packed_arguments[] = {nullptr};

hipError_t fake_init(unsigned) {
  return fake.init;
}
hipError_t fake_runtime_version(int* v) {
  return *v = 50200000, hipSuccess;
}
const char* fake_error_name(hipError_t e) {
  return e == 2 ? "hipErrorOutOfMemory" : e == 101 ? "hipErrorInvalidDevice" : "hipErrorUnknown";
}
const char* fake_error_string(hipError_t e) {
  return e == 2 ? "out of memory" : "fake error";
}
hipError_t fake_device_count(int* n) {
  return *n = 1, hipSuccess;
}
hipError_t fake_device_get(hipDevice_t* d, int ordinal) {
  return *d = ordinal, hipSuccess;
}
hipError_t fake_device_name(char* name, int len, hipDevice_t) {
  std::strncpy(name, "Fake Instinct", static_cast<std::size_t>(len));
  return hipSuccess;
}
hipError_t fake_attribute(int* value, hipDeviceAttribute_t a, int) {
  switch (a) {
    case hipDeviceAttributeMaxThreadsPerBlock:
    case hipDeviceAttributeMaxBlockDimX:
    case hipDeviceAttributeMaxBlockDimY:
    case hipDeviceAttributeMaxBlockDimZ:
      *value = 1024;
      break;
    case hipDeviceAttributeMultiprocessorCount:
      *value = 104;
      break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
      *value = 65536;
      break;
    default:
      *value = 65535;
  }
  return hipSuccess;
}
hipError_t fake_total_mem(size_t* bytes, hipDevice_t) {
  return *bytes = size_t{64} << 30, hipSuccess;
}
hipError_t fake_props(void* p, int, std::size_t offset) {
  std::memcpy(static_cast<char*>(p) + offset, fake.arch.c_str(), fake.arch.size() + 1);
  return hipSuccess;
}
hipError_t fake_props_r0000(void* p, int o) {
  return fake_props(p, o, kPropsGcnArchNameOffsetR0000);
}
hipError_t fake_props_r0600(void* p, int o) {
  return fake_props(p, o, kPropsGcnArchNameOffsetR0600);
}
hipError_t fake_set_device(int d) {
  return ++fake.set_device_calls, fake.current = d, hipSuccess;
}
hipError_t fake_get_device(int* d) {
  return *d = fake.current, hipSuccess;
}
hipError_t fake_ok() {
  return hipSuccess;
}
/// The bytes of the ELF file at `image`: up to the end of its section header table.
std::vector<std::uint8_t> elf_file(const void* image) {
  const auto* bytes = static_cast<const std::uint8_t*>(image);
  if (std::memcmp(bytes,
                  "\x7f"
                  "ELF",
                  4) != 0) {
    return {};
  }
  std::uint64_t section_headers = 0;  // Elf64_Ehdr: e_shoff, e_shentsize, e_shnum
  std::uint16_t entry = 0;
  std::uint16_t count = 0;
  std::memcpy(&section_headers, bytes + 0x28, sizeof section_headers);
  std::memcpy(&entry, bytes + 0x3A, sizeof entry);
  std::memcpy(&count, bytes + 0x3C, sizeof count);
  return {bytes, bytes + section_headers + std::uint64_t{entry} * count};
}
hipError_t fake_load(hipModule_t* m, const void* image) {
  ++fake.modules_loaded;
  fake.image = elf_file(image);
  *m = reinterpret_cast<hipModule_t>(kModule);  // NOLINT(performance-no-int-to-ptr)
  return hipSuccess;
}
hipError_t fake_unload(hipModule_t) {
  return ++fake.modules_unloaded, hipSuccess;
}
/// Finds every global but "d_count", at an address and with a size made from its name.
hipError_t fake_get_global(hipDeviceptr_t* p, size_t* bytes, hipModule_t, const char* name) {
  fake.globals_asked.emplace_back(name);
  if (std::string(name) == "d_count") {
    return hipErrorNotFound;
  }
  *p = reinterpret_cast<hipDeviceptr_t>(0x1000 * fake.globals_asked.size());  // NOLINT
  *bytes = std::string(name).size();
  return hipSuccess;
}
hipError_t fake_get_function(hipFunction_t* f, hipModule_t, const char* name) {
  fake.function_asked = name;
  *f = reinterpret_cast<hipFunction_t>(kFunction);  // NOLINT(performance-no-int-to-ptr)
  return hipSuccess;
}
/// A launch of `func`, its arguments read as vadd's.
FakeRuntime::Launch vadd_launch(const void* func, hipDim3 grid, hipDim3 block, unsigned shared,
                                void** params) {
  FakeRuntime::Launch l;
  l.func = func;
  l.grid = {grid.x, grid.y, grid.z};
  l.block = {block.x, block.y, block.z};
  l.shared = shared;
  for (std::size_t i = 0; i < l.pointers.size(); ++i) {
    std::memcpy(&l.pointers[i], params[i], sizeof l.pointers[i]);
  }
  std::memcpy(&l.n, params[3], sizeof l.n);
  return l;
}
/// Records the launch and runs nothing; on a capturing stream, adds a kernel node instead.
hipError_t fake_launch(hipFunction_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                       unsigned by, unsigned bz, unsigned shared, hipStream_t stream, void** params,
                       void**) {
  const FakeRuntime::Launch l = vadd_launch(f, {gx, gy, gz}, {bx, by, bz}, shared, params);
  const auto capture = fake.captures.find(stream);
  if (capture == fake.captures.end()) {
    ++fake.launches;
    fake.last_launch = l;
    return hipSuccess;
  }
  FakeRuntime::KernelNode& node = fake.nodes.emplace_back();
  node.launch = l;
  node.args = {&node.launch.pointers[0], &node.launch.pointers[1], &node.launch.pointers[2],
               &node.launch.n};
  capture->second.push_back(reinterpret_cast<hipGraphNode_t>(&node));  // NOLINT
  return hipSuccess;
}
hipError_t fake_malloc(void** p, size_t bytes) {
  if (fake.malloc_result != hipSuccess) {
    return fake.malloc_result;
  }
  ++fake.live_allocations;
  *p = std::malloc(bytes);
  return hipSuccess;
}
hipError_t fake_free(void* p) {
  return --fake.live_allocations, std::free(p), hipSuccess;
}
hipError_t fake_host_malloc(void** p, size_t bytes, unsigned) {
  return *p = std::malloc(bytes), hipSuccess;
}
hipError_t fake_host_free(void* p) {
  return std::free(p), hipSuccess;
}
hipError_t fake_copy_in(hipDeviceptr_t d, void* s, size_t n, hipStream_t) {
  return std::memcpy(d, s, n), hipSuccess;
}
hipError_t fake_copy_out(void* d, hipDeviceptr_t s, size_t n, hipStream_t) {
  return std::memcpy(d, s, n), hipSuccess;
}
hipError_t fake_copy_on(hipDeviceptr_t d, hipDeviceptr_t s, size_t n, hipStream_t) {
  return std::memcpy(d, s, n), hipSuccess;
}
hipError_t fake_stream_create(hipStream_t* s, unsigned flags) {
  fake.stream_flags = flags;
  const auto handle = static_cast<std::uintptr_t>(kStream + 0x10 * fake.streams_created++);
  *s = reinterpret_cast<hipStream_t>(handle);  // NOLINT(performance-no-int-to-ptr)
  return hipSuccess;
}
hipError_t fake_stream(hipStream_t) {
  return hipSuccess;
}
hipError_t fake_stream_wait(hipStream_t, hipEvent_t, unsigned) {
  return hipSuccess;
}
hipError_t fake_event_create(hipEvent_t* e, unsigned flags) {
  fake.event_flags = flags;
  *e = reinterpret_cast<hipEvent_t>(new int(0));  // NOLINT
  return hipSuccess;
}
hipError_t fake_event_destroy(hipEvent_t e) {
  return delete reinterpret_cast<int*>(e), hipSuccess;
}
hipError_t fake_event_record(hipEvent_t, hipStream_t) {
  return hipSuccess;
}
hipError_t fake_event(hipEvent_t) {
  return hipSuccess;
}
hipError_t fake_elapsed(float* ms, hipEvent_t, hipEvent_t) {
  return *ms = 1.5F, hipSuccess;
}

// Capture and graphs. Graphs and execs are handed out as their index + 1, nodes as their address.
template <class Handle>
Handle handle_of(std::size_t index) {
  return reinterpret_cast<Handle>(index + 1);  // NOLINT(performance-no-int-to-ptr)
}
template <class T, class Handle>
T* find_handle(std::vector<T>& all, Handle handle) {
  const auto index = reinterpret_cast<std::uintptr_t>(handle) - 1;
  return index < all.size() ? &all[index] : nullptr;
}
FakeRuntime::KernelNode* find_node(hipGraphNode_t handle) {
  for (FakeRuntime::KernelNode& node : fake.nodes) {
    if (reinterpret_cast<hipGraphNode_t>(&node) == handle) {  // NOLINT
      return &node;
    }
  }
  return nullptr;
}
hipError_t fake_begin_capture(hipStream_t s, int mode) {
  fake.capture_mode = mode;
  return fake.captures.try_emplace(s).second ? hipSuccess : kIllegalState;
}
/// The capture is active, and follows the last node captured (as work on one stream does).
hipError_t fake_capture_info(hipStream_t s, int* status, unsigned long long* id, hipGraph_t* graph,
                             const hipGraphNode_t** dependencies, size_t* count) {
  ++fake.capture_info_calls;
  const auto capture = fake.captures.find(s);
  const bool active = capture != fake.captures.end();
  const bool follows = active && !capture->second.empty();
  *status = active ? hipStreamCaptureStatusActive : 0;
  if (id != nullptr) {
    *id = active ? 1 : 0;
  }
  if (graph != nullptr) {
    *graph = nullptr;
  }
  if (dependencies != nullptr) {
    *dependencies = follows ? &capture->second.back() : nullptr;
  }
  if (count != nullptr) {
    *count = follows ? 1 : 0;
  }
  return hipSuccess;
}
hipError_t fake_end_capture(hipStream_t s, hipGraph_t* graph) {
  const auto capture = fake.captures.find(s);
  if (capture == fake.captures.end()) {
    return kIllegalState;
  }
  fake.graphs.push_back(std::move(capture->second));
  fake.captures.erase(capture);
  *graph = handle_of<hipGraph_t>(fake.graphs.size() - 1);
  return hipSuccess;
}
hipError_t fake_graph_nodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* count) {
  const std::vector<hipGraphNode_t>* g = find_handle(fake.graphs, graph);
  if (g == nullptr) {
    return kInvalidValue;
  }
  if (nodes != nullptr) {
    std::copy_n(g->begin(), std::min(*count, g->size()), nodes);
  }
  *count = g->size();
  return hipSuccess;
}
hipError_t fake_instantiate(hipGraphExec_t* exec, hipGraph_t graph, hipGraphNode_t*, char*,
                            size_t) {
  const std::vector<hipGraphNode_t>* g = find_handle(fake.graphs, graph);
  if (g == nullptr) {
    return kInvalidValue;
  }
  FakeRuntime::Exec e{*g, {}};
  for (const hipGraphNode_t node : *g) {
    e.launches.push_back(find_node(node)->launch);
  }
  fake.execs.push_back(std::move(e));
  *exec = handle_of<hipGraphExec_t>(fake.execs.size() - 1);
  return hipSuccess;
}
/// "Runs" each node: records its launch as the exec has it now.
hipError_t fake_graph_launch(hipGraphExec_t exec, hipStream_t) {
  const FakeRuntime::Exec* e = find_handle(fake.execs, exec);
  if (e == nullptr) {
    return kInvalidValue;
  }
  ++fake.graph_launches;
  fake.replayed.insert(fake.replayed.end(), e->launches.begin(), e->launches.end());
  return hipSuccess;
}
hipError_t fake_exec_destroy(hipGraphExec_t exec) {
  return find_handle(fake.execs, exec) == nullptr ? kInvalidValue
                                                  : (++fake.execs_destroyed, hipSuccess);
}
hipError_t fake_graph_destroy(hipGraph_t graph) {
  return find_handle(fake.graphs, graph) == nullptr ? kInvalidValue
                                                    : (++fake.graphs_destroyed, hipSuccess);
}
hipError_t fake_node_params(hipGraphNode_t handle, hipKernelNodeParams* params) {
  ++fake.get_params_calls;
  if (const hipError_t failure = std::exchange(fake.get_params_failure, hipSuccess);
      failure != hipSuccess) {
    return failure;
  }
  FakeRuntime::KernelNode* node = find_node(handle);
  if (node == nullptr) {
    return kInvalidValue;
  }
  const FakeRuntime::Launch& l = node->launch;
  params->func = const_cast<void*>(l.func);  // NOLINT(cppcoreguidelines-pro-type-const-cast)
  params->gridDim = {l.grid[0], l.grid[1], l.grid[2]};
  params->blockDim = {l.block[0], l.block[1], l.block[2]};
  params->sharedMemBytes = l.shared;
  params->kernelParams = node->args.data();
  params->extra = packed_arguments;
  return hipSuccess;
}
/// Records what it was given and gives the exec's node those params.
hipError_t fake_set_node_params(hipGraphExec_t exec, hipGraphNode_t node,
                                const hipKernelNodeParams* params) {
  const FakeRuntime::Launch l = vadd_launch(params->func, params->gridDim, params->blockDim,
                                            params->sharedMemBytes, params->kernelParams);
  fake.set_params.push_back({exec, node, *params, l, fake.current});
  FakeRuntime::Exec* e = find_handle(fake.execs, exec);
  if (e == nullptr) {
    return kInvalidValue;
  }
  const auto at = std::find(e->nodes.begin(), e->nodes.end(), node);
  if (at == e->nodes.end()) {
    return kInvalidValue;
  }
  e->launches[static_cast<std::size_t>(at - e->nodes.begin())] = l;
  return hipSuccess;
}

HipApi make_fake_api() {
  HipApi api;
  api.hipInit = fake_init;
  api.hipRuntimeGetVersion = fake_runtime_version;
  api.hipGetErrorName = fake_error_name;
  api.hipGetErrorString = fake_error_string;
  api.hipGetDeviceCount = fake_device_count;
  api.hipDeviceGet = fake_device_get;
  api.hipDeviceGetName = fake_device_name;
  api.hipDeviceGetAttribute = fake_attribute;
  api.hipDeviceTotalMem = fake_total_mem;
  api.hipGetDeviceProperties = fake_props_r0000;
  api.hipSetDevice = fake_set_device;
  api.hipGetDevice = fake_get_device;
  api.hipDeviceSynchronize = fake_ok;
  api.hipModuleLoadData = fake_load;
  api.hipModuleUnload = fake_unload;
  api.hipModuleGetFunction = fake_get_function;
  api.hipModuleGetGlobal = fake_get_global;
  api.hipModuleLaunchKernel = fake_launch;
  api.hipMalloc = fake_malloc;
  api.hipFree = fake_free;
  api.hipHostMalloc = fake_host_malloc;
  api.hipHostFree = fake_host_free;
  api.hipMemcpyHtoDAsync = fake_copy_in;
  api.hipMemcpyDtoHAsync = fake_copy_out;
  api.hipMemcpyDtoDAsync = fake_copy_on;
  api.hipStreamCreateWithFlags = fake_stream_create;
  api.hipStreamDestroy = fake_stream;
  api.hipStreamSynchronize = fake_stream;
  api.hipStreamWaitEvent = fake_stream_wait;
  api.hipEventCreateWithFlags = fake_event_create;
  api.hipEventDestroy = fake_event_destroy;
  api.hipEventRecord = fake_event_record;
  api.hipEventSynchronize = fake_event;
  api.hipEventQuery = fake_event;
  api.hipEventElapsedTime = fake_elapsed;
  api.hipStreamBeginCapture = fake_begin_capture;
  api.hipStreamGetCaptureInfo = fake_capture_info;
  api.hipStreamEndCapture = fake_end_capture;
  api.hipGraphGetNodes = fake_graph_nodes;
  api.hipGraphInstantiate = fake_instantiate;
  api.hipGraphLaunch = fake_graph_launch;
  api.hipGraphExecDestroy = fake_exec_destroy;
  api.hipGraphDestroy = fake_graph_destroy;
  api.hipGraphKernelNodeGetParams = fake_node_params;
  api.hipGraphExecKernelNodeSetParams = fake_set_node_params;
  api.library = "fake";
  return api;
}

HipApi fake_api = make_fake_api();
const HipApi* fake_source(std::string& why) {
  why.clear();
  return &fake_api;
}
const HipApi* no_runtime(std::string& why) {
  why = "the HIP runtime is not installed (libamdhip64.so.7: cannot open shared object file)";
  return nullptr;
}

class FakeHip : public ::testing::Test {
 public:
  void SetUp() override {
    fake = FakeRuntime();
    fake_api = make_fake_api();
  }
};

TEST_F(FakeHip, NoRuntimeMeansNoDevicesAndSaysWhy) {
  auto backend = create_backend(no_runtime);
  EXPECT_TRUE(backend->enumerate().empty());
  EXPECT_NE(backend->unavailable_reason().find("libamdhip64.so.7"), std::string::npos);
  EXPECT_THROW((void)backend->open(0), DeviceError);
}

TEST_F(FakeHip, ARuntimeWithoutAGpuMeansNoDevicesAndSaysWhy) {
  fake.init = 101;  // what ROCm 5.2's hipInit returns on a machine without an AMD GPU
  auto backend = create_backend(fake_source);
  EXPECT_TRUE(backend->enumerate().empty());
  EXPECT_NE(backend->unavailable_reason().find("hipErrorInvalidDevice"), std::string::npos)
      << backend->unavailable_reason();
}

TEST_F(FakeHip, DevicesAreDescribedFromEitherPropertiesLayout) {
  for (const bool r0600 : {false, true}) {
    fake_api.hipGetDevicePropertiesR0600 = r0600 ? fake_props_r0600 : nullptr;
    fake.arch = r0600 ? "gfx942:sramecc+:xnack-" : "gfx90a:sramecc+:xnack-";
    auto backend = create_backend(fake_source);
    const std::vector<DeviceInfo> devices = backend->enumerate();
    ASSERT_EQ(devices.size(), 1U) << backend->unavailable_reason();
    const DeviceInfo& d = devices[0];
    EXPECT_EQ(d.backend, BackendKind::hip);
    EXPECT_EQ(d.id(), "hip:0");
    EXPECT_EQ(d.name, "Fake Instinct");
    EXPECT_EQ(d.arch, fake.arch);
    EXPECT_EQ(d.total_memory, std::size_t{64} << 30);
    EXPECT_EQ(d.compute_units, 104U);
    EXPECT_EQ(d.max_threads_per_block, 1024U);
    EXPECT_EQ(d.max_shared_bytes, 65536U);
  }
}

class FakeHipWithHiprtc : public FakeHip {
 public:
  void SetUp() override {
    FakeHip::SetUp();
    std::string why;
    if (hiprtc_api(why) == nullptr) {
      GTEST_SKIP() << "hipRTC is not available to make code objects: " << why;
    }
  }
};

/// vadd launched through the runtime seam on random inputs and a poisoned output: the runtime
/// must get the grid and block for n elements and exactly the buffers and n given; what was
/// copied in must come back; and the output keeps its poison, since the fake runs no code. The
/// memory is freed again.
void launch_vadd_and_check_the_call(backend::Device& device, backend::Stream& stream,
                                    backend::Function& vadd, int n, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> value(-10, 10);
  std::vector<float> a(n);
  std::vector<float> b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = value(random);
    b[i] = value(random);
  }
  const std::uint64_t da = device.allocate(n * sizeof(float));
  const std::uint64_t db = device.allocate(n * sizeof(float));
  const std::uint64_t dc = device.allocate(n * sizeof(float));
  std::vector<float> c(n, -12345.0F);  // poison
  stream.copy_to_device(dc, c.data(), n * sizeof(float));
  stream.copy_to_device(da, a.data(), n * sizeof(float));
  stream.copy_to_device(db, b.data(), n * sizeof(float));
  const int launches = fake.launches;
  const void* args[] = {&da, &db, &dc, &n};
  const LaunchConfig config = LaunchConfig::for_elements(n);
  vadd.launch(stream, config, args);
  EXPECT_EQ(fake.launches, launches + 1);
  const FakeRuntime::Launch& l = fake.last_launch;
  EXPECT_EQ(l.grid, (std::array<unsigned, 3>{config.grid.x, 1, 1}));
  EXPECT_EQ(config.grid.x, (static_cast<unsigned>(n) + 255) / 256);
  EXPECT_EQ(l.block, (std::array<unsigned, 3>{256, 1, 1}));
  EXPECT_EQ(l.shared, 0U);
  EXPECT_EQ(l.pointers, (std::array<std::uint64_t, 3>{da, db, dc}));
  EXPECT_EQ(l.n, n);
  std::vector<float> back(n);
  stream.copy_to_host_now(back.data(), da, n * sizeof(float));
  EXPECT_EQ(back, a);
  stream.copy_to_host_now(back.data(), db, n * sizeof(float));
  EXPECT_EQ(back, b);
  stream.copy_to_host_now(back.data(), dc, n * sizeof(float));
  EXPECT_EQ(back, c) << "the fake runtime ran code";
  for (const std::uint64_t p : {da, db, dc}) {
    device.free(p);
  }
}

/// What llvm-objdump disassembles of `code` for `mcpu`; empty when llvm-objdump is missing.
std::string disassembly(const std::vector<std::uint8_t>& code, const std::string& mcpu) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("kjit_hip_code_" + std::to_string(::getpid()) + "_" + mcpu);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "code.o", std::ios::binary)
      .write(reinterpret_cast<const char*>(code.data()), static_cast<std::streamsize>(code.size()));
  const std::string command = std::string(KJIT_TEST_LLVM_OBJDUMP) + " -d --mcpu=" + mcpu + " '" +
                              (dir / "code.o").string() + "' > '" + (dir / "out.txt").string() +
                              "' 2>&1";
  const int status = std::system(command.c_str());  // NOLINT(cert-env33-c): a test's own tool
  std::stringstream out;
  out << std::ifstream(dir / "out.txt").rdbuf();
  std::filesystem::remove_all(dir);
  return status == 0 ? out.str() : "llvm-objdump failed: " + out.str();
}

/// The code object the runtime was given is the one compiled, and it holds vadd: its symbol, and
/// in its code the loads of a and b, the add and the store of c.
void expect_vadd_code(const backend::Binary& binary, const std::string& mcpu) {
  EXPECT_EQ(fake.image, binary.bytes) << "the runtime got other bytes than the compiled ones";
  if (std::string(KJIT_TEST_LLVM_OBJDUMP).empty()) {
    GTEST_SKIP() << "llvm-objdump-19 is not installed: the code object is not disassembled";
  }
  const std::string text = disassembly(binary.bytes, mcpu);
  EXPECT_NE(text.find("<_Z4vaddPKfS0_Pfi>:"), std::string::npos) << text;
  for (const char* instruction :
       {"global_load_dword", "v_add_f32", "global_store_dword", "s_endpgm"}) {
    EXPECT_NE(text.find(instruction), std::string::npos) << instruction << " missing:\n" << text;
  }
}

TEST_F(FakeHipWithHiprtc, VariablesOfACodeObjectAreAskedOfTheRuntimeByTheirSymbols) {
  auto backend = create_backend(fake_source);
  ASSERT_EQ(backend->enumerate().size(), 1U);
  auto device = backend->open(0);
  const auto symbols_cu = std::find_if(
      test::kernel_files().begin(), test::kernel_files().end(),
      [](const test::KernelFile& k) { return std::string(k.file).ends_with("symbols.cu"); });
  ASSERT_NE(symbols_cu, test::kernel_files().end());
  auto module = device->load(device->compiler().compile(test::request_for(*symbols_cu)));
  std::vector<std::string> names;
  for (const backend::Variable& v : module->variables()) {
    names.push_back(v.name);
    EXPECT_NE(v.address, 0U) << v.name;
  }
  std::sort(names.begin(), names.end());
  // d_count is the one the runtime says it does not have: left out, not an error. The static
  // s_offset is not there at all: hipRTC has no host half to register it, so LLVM folds it.
  EXPECT_EQ(names, (std::vector<std::string>{"c_scale", "c_taps", "filters::bias"}));
  std::sort(fake.globals_asked.begin(), fake.globals_asked.end());
  EXPECT_TRUE(std::binary_search(fake.globals_asked.begin(), fake.globals_asked.end(),
                                 "_ZN7filters4biasE"));
  EXPECT_TRUE(std::binary_search(fake.globals_asked.begin(), fake.globals_asked.end(), "c_taps"));
}

TEST_F(FakeHipWithHiprtc, VaddCompilesLoadsAndLaunchesThroughTheRuntimeSeam) {
  auto backend = create_backend(fake_source);
  ASSERT_EQ(backend->enumerate().size(), 1U);
  auto device = backend->open(0);
  // The probe the disk cache remembers hipRTC's identity by names the device and both libraries.
  const std::optional<std::string> probe = device->compiler().identity_probe();
  ASSERT_TRUE(probe);
  EXPECT_EQ(probe->rfind("hipRTC for a device of gfx90a:sramecc+:xnack-\n", 0), 0U) << *probe;
  EXPECT_NE(probe->find("\ncomgr\n"), std::string::npos) << *probe;
  EXPECT_EQ(device->compiler().identity().target, "hip:gfx90a:sramecc+:xnack-");
  const backend::Binary binary = device->compiler().compile(
      test::request_for(test::kernel_files().front()));  // kernels/vadd.cu
  auto module = device->load(binary);
  EXPECT_EQ(fake.modules_loaded, 1);
  auto function = module->function(binary.kernel_symbols.at(0), "vadd");
  ASSERT_EQ(function->params().size(), 4U);
  EXPECT_EQ(function->params()[3].offset, 24U);
  EXPECT_EQ(function->params()[3].size, sizeof(int));

  auto stream = device->create_stream();
  launch_vadd_and_check_the_call(*device, *stream, *function, 1000, 11);
  EXPECT_EQ(fake.launches, 1);
  EXPECT_GE(fake.set_device_calls, 1);
  EXPECT_EQ(fake.current, 0);
  const std::uint64_t none = 0;
  const int one = 1;
  const void* args[] = {&none, &none, &none, &one};
  EXPECT_THROW(function->launch(*stream, LaunchConfig{{1, 1, 1}, {2048, 1, 1}, 0}, args),
               LaunchError);  // more threads than the device has: refused before the runtime
  EXPECT_EQ(fake.launches, 1);
  auto start = stream->record();
  auto end = stream->record();
  EXPECT_TRUE(end->ready());
  EXPECT_EQ(end->elapsed_ms_since(*start), 1.5);
  EXPECT_EQ(fake.live_allocations, 0U);
  module.reset();
  EXPECT_EQ(fake.modules_unloaded, 1);
  expect_vadd_code(binary, "gfx90a");
}

TEST_F(FakeHipWithHiprtc, AKernelsOwnLaunchBoundsAreEnforcedBeforeTheRuntime) {
  auto backend = create_backend(fake_source);
  ASSERT_EQ(backend->enumerate().size(), 1U);
  auto device = backend->open(0);
  backend::CompileRequest r;
  r.program_name = "bounded.cu";
  r.source = "__global__ void __launch_bounds__(128) k(int* v) { v[threadIdx.x] = 1; }\n";
  r.kernel_names = {"k"};
  r.kernel_signatures.resize(1);
  const backend::Binary binary = device->compiler().compile(r);
  auto module = device->load(binary);
  auto function = module->function(binary.kernel_symbols.at(0), "k");
  ASSERT_EQ(function->max_block_threads(), std::optional<std::size_t>(128));
  auto stream = device->create_stream();
  const std::uint64_t none = 0;
  const void* args[] = {&none};
  try {
    function->launch(*stream, LaunchConfig{{1, 1, 1}, {256, 1, 1}, 0}, args);
    ADD_FAILURE() << "a block past the kernel's bounds was launched";
  } catch (const LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("blocks of 256 threads exceed the 128 this kernel was "
                                         "compiled for"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(fake.launches, 0);  // (the fake runs vadd's arguments only: no launch within them)
}

TEST_F(FakeHipWithHiprtc, CodeObjectsForAnotherTargetOrFormatAreNotLoaded) {
  auto backend = create_backend(fake_source);
  ASSERT_EQ(backend->enumerate().size(), 1U);
  auto device = backend->open(0);
  const backend::Binary gfx908 =
      backend->offline_compiler("gfx908")->compile(test::request_for(test::kernel_files().front()));
  try {
    (void)device->load(gfx908);
    ADD_FAILURE() << "a gfx908 code object loaded on a gfx90a device";
  } catch (const BackendError& e) {
    EXPECT_NE(std::string(e.what()).find("gfx908"), std::string::npos) << e.what();
  }
  backend::Binary ptx = gfx908;
  ptx.format = "ptx";
  EXPECT_THROW((void)device->load(ptx), BackendError);
  backend::Binary garbage = gfx908;
  garbage.bytes.resize(40);
  EXPECT_THROW((void)device->load(garbage), BackendError);
  EXPECT_EQ(fake.modules_loaded, 0) << "nothing bad reached the runtime";
}

/// vadd's arguments, as a launch passes them: pointers to the values.
struct VaddArgs {
  std::uint64_t a;
  std::uint64_t b;
  std::uint64_t c;
  int n;
  std::array<const void*, 4> pointers{&a, &b, &c, &n};
  /// The launch the runtime should see for these arguments.
  [[nodiscard]] FakeRuntime::Launch as_launched(const LaunchConfig& config) const {
    FakeRuntime::Launch l;
    l.func = reinterpret_cast<const void*>(kFunction);  // NOLINT(performance-no-int-to-ptr)
    l.grid = {config.grid.x, config.grid.y, config.grid.z};
    l.block = {config.block.x, config.block.y, config.block.z};
    l.shared = static_cast<unsigned>(config.shared_bytes);
    l.pointers = {a, b, c};
    l.n = n;
    return l;
  }
};

/// vadd, compiled by the real hipRTC, loaded on the fake's device, with a stream to record on.
class FakeHipGraph : public FakeHipWithHiprtc {
 public:
  void SetUp() override {
    FakeHipWithHiprtc::SetUp();
    if (IsSkipped()) {
      return;
    }
    hip_backend = create_backend(fake_source);
    ASSERT_EQ(hip_backend->enumerate().size(), 1U);
    device = hip_backend->open(0);
    const backend::Binary binary =
        device->compiler().compile(test::request_for(test::kernel_files().front()));  // vadd.cu
    module = device->load(binary);
    vadd = module->function(binary.kernel_symbols.at(0), "vadd");
    stream = device->create_stream();
  }

  std::unique_ptr<backend::Backend> hip_backend;
  std::unique_ptr<backend::Device> device;
  std::unique_ptr<backend::Module> module;
  std::unique_ptr<backend::Function> vadd;
  std::unique_ptr<backend::Stream> stream;
};

/// Sets launch `launch` of `graph` to `args` with another device current; the runtime must get
/// exactly those argument pointers, no `extra`, and the node's own kernel, grid, block and shared
/// memory, on the graph's device.
void set_and_check(backend::Graph& graph, std::size_t launch, const backend::Function& vadd,
                   const VaddArgs& args, const FakeRuntime::Launch& node) {
  fake.current = -1;
  const std::size_t calls = fake.set_params.size();
  graph.set_arguments(launch, vadd, args.pointers.data());
  ASSERT_EQ(fake.set_params.size(), calls + 1);
  const FakeRuntime::SetParams& set = fake.set_params.back();
  EXPECT_EQ(set.exec, handle_of<hipGraphExec_t>(fake.execs.size() - 1));
  EXPECT_EQ(set.node, fake.graphs.back().at(launch));
  EXPECT_EQ(set.params.kernelParams, const_cast<void**>(args.pointers.data()));  // NOLINT
  EXPECT_EQ(set.params.extra, nullptr);
  EXPECT_EQ(set.device, 0);
  FakeRuntime::Launch expected = node;
  expected.pointers = {args.a, args.b, args.c};
  expected.n = args.n;
  EXPECT_EQ(set.launch, expected) << "launch " << launch;
}

/// Two launches of vadd recorded (and not run), replayed with the arguments they were recorded
/// with, then given new ones: the runtime is asked for each node's params once (the graph keeps
/// them), gets back exactly the new arguments on the node's own launch, and the next replay runs
/// them. The flags the backend passes the runtime are its documented ones.
TEST_F(FakeHipGraph, RecordsReplaysAndTakesNewArgumentsOnItsDevice) {
  // The fake runs nothing: the addresses need not be allocated.
  const VaddArgs first{0x1000, 0x2000, 0x3000, 1000};
  const VaddArgs second{0x4000, 0x5000, 0x6000, 300};
  const LaunchConfig one = LaunchConfig::for_elements(1000);
  const LaunchConfig two{{3, 2, 1}, {128, 1, 1}, 512};
  stream->begin_recording();
  EXPECT_EQ(fake.stream_flags, hipStreamNonBlocking);
  EXPECT_EQ(fake.capture_mode, hipStreamCaptureModeRelaxed);
  vadd->launch(*stream, one, first.pointers.data());
  vadd->launch(*stream, two, second.pointers.data());
  EXPECT_EQ(fake.capture_info_calls, 2) << "each launch recorded asks which node it became";
  auto graph = stream->end_recording();
  EXPECT_EQ(fake.launches, 0) << "a recorded launch ran";
  ASSERT_EQ(fake.graphs.size(), 1U);
  ASSERT_EQ(fake.execs.size(), 1U);
  EXPECT_EQ(graph->size(), 2U);

  graph->launch(*stream);
  const std::vector<FakeRuntime::Launch> recorded{first.as_launched(one), second.as_launched(two)};
  EXPECT_EQ(fake.graph_launches, 1);
  EXPECT_EQ(fake.replayed, recorded);

  const VaddArgs third{0x7000, 0x8000, 0x9000, 999};
  const VaddArgs fourth{0xA000, 0xB000, 0xC000, 998};
  const VaddArgs fifth{0xD000, 0xE000, 0xF000, 17};
  set_and_check(*graph, 0, *vadd, third, recorded[0]);
  set_and_check(*graph, 0, *vadd, fourth, recorded[0]);
  set_and_check(*graph, 1, *vadd, fifth, recorded[1]);
  EXPECT_EQ(fake.get_params_calls, 2) << "a node's params are asked for once, then kept";
  fake.replayed.clear();
  graph->launch(*stream);
  EXPECT_EQ(fake.graph_launches, 2);
  EXPECT_EQ(fake.replayed,
            (std::vector<FakeRuntime::Launch>{fourth.as_launched(one), fifth.as_launched(two)}));
  auto done = stream->record();
  EXPECT_EQ(fake.event_flags, hipEventDefault);
  graph.reset();
  EXPECT_EQ(fake.execs_destroyed, 1);
  EXPECT_EQ(fake.graphs_destroyed, 1);
  EXPECT_EQ(fake.launches, 0) << "only the graph ran";
}

/// When the runtime cannot say what a node's params are, setting its arguments is an error that
/// names the call and the device, nothing reaches the exec, and nothing is kept: the next try
/// asks again.
TEST_F(FakeHipGraph, NodeParamsThatCannotBeReadAreAnErrorAndAreAskedForAgain) {
  const VaddArgs recorded{0x1000, 0x2000, 0x3000, 64};
  const LaunchConfig config = LaunchConfig::for_elements(64);
  stream->begin_recording();
  vadd->launch(*stream, config, recorded.pointers.data());
  auto graph = stream->end_recording();

  const VaddArgs next{0x4000, 0x5000, 0x6000, 65};
  fake.get_params_failure = 400;
  try {
    graph->set_arguments(0, *vadd, next.pointers.data());
    ADD_FAILURE() << "new arguments were set without the node's params";
  } catch (const BackendError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("hipGraphKernelNodeGetParams"), std::string::npos) << what;
    EXPECT_NE(what.find("hip:0"), std::string::npos) << what;
  }
  EXPECT_EQ(fake.get_params_calls, 1);
  EXPECT_TRUE(fake.set_params.empty());
  set_and_check(*graph, 0, *vadd, next, recorded.as_launched(config));
  EXPECT_EQ(fake.get_params_calls, 2) << "the failure was kept";
  set_and_check(*graph, 0, *vadd, recorded, recorded.as_launched(config));
  EXPECT_EQ(fake.get_params_calls, 2) << "the params read were not kept";
  graph->launch(*stream);
  EXPECT_EQ(fake.replayed, std::vector<FakeRuntime::Launch>{recorded.as_launched(config)});
}

TEST_F(FakeHip, RuntimeErrorsNameTheCallTheErrorAndTheDevice) {
  auto backend = create_backend(fake_source);
  ASSERT_EQ(backend->enumerate().size(), 1U);
  auto device = backend->open(0);
  fake.malloc_result = 2;
  try {
    (void)device->allocate(4096);
    ADD_FAILURE() << "allocated";
  } catch (const BackendError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("hipMalloc"), std::string::npos) << what;
    EXPECT_NE(what.find("hipErrorOutOfMemory"), std::string::npos) << what;
    EXPECT_NE(what.find("hip:0"), std::string::npos) << what;
    EXPECT_NE(what.find("4096 bytes"), std::string::npos) << what;
  }
}

TEST_F(FakeHipWithHiprtc, ADeviceHipRtcDoesNotKnowGetsAClearErrorNotAnAbort) {
  std::string why;
  if (is_known(hiprtc_api(why)->isas, "gfx942")) {
    GTEST_SKIP() << "this hipRTC knows gfx942";
  }
  fake.arch = "gfx942:sramecc+:xnack-";
  auto backend = create_backend(fake_source);
  ASSERT_EQ(backend->enumerate().size(), 1U);
  auto device = backend->open(0);
  try {
    (void)device->compiler().compile(test::request_for(test::kernel_files().front()));
    ADD_FAILURE() << "compiled for gfx942";
  } catch (const BackendError& e) {
    EXPECT_NE(std::string(e.what()).find("gfx942"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bitcode"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)device->compiler().identity(), BackendError);  // the same answer again
}

#if KJIT_TEST_BITCODE
// What hipRTC cannot compile for, bitcode can: gfx942 bitcode through LLVM and lld, loaded and
// launched through the runtime seam (the fake checks the call and the code object).
TEST_F(FakeHip, AGfx942DeviceLaunchesKernelsFromBitcode) {
  fake.arch = "gfx942:sramecc+:xnack-";
  auto backend = create_backend(fake_source);
  ASSERT_EQ(backend->enumerate().size(), 1U);
  auto device = backend->open(0);
  backend::CompileRequest request;
  request.program_name = "examples.gfx942.bc";
  request.input = backend::InputKind::bitcode;
  std::ifstream in(std::filesystem::path(KJIT_SOURCE_DIR) / "kernels/bitcode/examples.gfx942.bc",
                   std::ios::binary);
  request.source.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  request.kernel_names = {"vadd"};
  request.kernel_signatures.resize(1);
  backend::Compiler& compiler = device->compiler_for(request);
  EXPECT_EQ(compiler.identity().target, "hip:gfx942:sramecc+:xnack-");
  const backend::Binary binary = compiler.compile(request);
  const CodeObject code = read_code_object(binary.bytes, "gfx942 vadd");
  EXPECT_EQ(code.target, "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
  auto module = device->load(binary);
  auto function = module->function(binary.kernel_symbols.at(0), "vadd");
  EXPECT_EQ(fake.function_asked, "_Z4vaddPKfS0_Pfi");
  ASSERT_EQ(function->params().size(), 4U);

  auto stream = device->create_stream();
  launch_vadd_and_check_the_call(*device, *stream, *function, 777, 5);
  expect_vadd_code(binary, "gfx942");
}
#endif

}  // namespace
}  // namespace kjit::hip
