// kjit::Graph: launches and device copies recorded from a stream (and from streams that join the
// recording through events) and replayed give what running them gives, on random inputs, replay
// after replay; the recorded kernels stay loaded; a freed buffer, a stream not joined back, and
// what a recording cannot hold (waits, host copies, spans, outside events), are refused with
// clear errors that leave the streams usable.
#include "test_support.hpp"

namespace kjit::test {
namespace {

const char* const kSource = R"(
__global__ void axpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void scale(float* y, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = y[i] * s - 1.0f;
}
__global__ void increment(int* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1;
}
)";

using Axpy = Kernel<float, const float*, float*, int>;
using Scale = Kernel<float*, float, int>;

class Graphs : public DeviceTest {
 public:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) {
      return;
    }
    program = Program::from_source("graph.cu", kSource);
    axpy = program.kernel<float, const float*, float*, int>("axpy", device);
    scale = program.kernel<float*, float, int>("scale", device);
  }

  /// The recorded sequence, run on `stream` (recorded or not): y = a x + y; y = y s - 1; z = y;
  /// z = a y + z.
  void sequence(const Stream& stream, float a, float s, DeviceBuffer<float>& x,
                DeviceBuffer<float>& y, DeviceBuffer<float>& z) const {
    const int n = static_cast<int>(x.size());
    const LaunchConfig config = LaunchConfig::for_elements(n, 128);
    axpy.launch(stream, config, a, x, y, n);
    scale.launch(stream, config, y, s, n);
    z.copy_from(y, stream);
    axpy.launch(stream, config, a, y, z, n);
  }

  /// The same on two streams: `side` joins `main` through an event and sets y = y s - 1 while
  /// `main` sets z = a x + z; then `main`, after both, sets z = a y + z.
  void fork_join(const Stream& main, const Stream& side, float a, float s, DeviceBuffer<float>& x,
                 DeviceBuffer<float>& y, DeviceBuffer<float>& z) const {
    const int n = static_cast<int>(x.size());
    const LaunchConfig config = LaunchConfig::for_elements(n, 128);
    side.wait(main.record());
    scale.launch(side, config, y, s, n);
    axpy.launch(main, config, a, x, z, n);
    main.wait(side.record());
    axpy.launch(main, config, a, y, z, n);
  }

  Program program;
  Axpy axpy;
  Scale scale;
};

TEST_F(Graphs, ReplaysGiveWhatTheRecordedWorkGives) {
  const std::size_t n = 1000 + rng() % 3000;
  const float a = random_vector<float>(1, -2.0f, 2.0f)[0];
  const float s = random_vector<float>(1, 0.5f, 1.5f)[0];
  const std::vector<float> x0 = random_vector<float>(n, -1.0f, 1.0f);
  const std::vector<float> y0 = random_vector<float>(n, -1.0f, 1.0f);
  const Stream stream = device.create_stream();

  auto x = device.upload(x0);
  auto y = device.upload(y0);
  auto z = poisoned<float>(n);
  const Graph graph = Graph::record(stream, [&] { sequence(stream, a, s, x, y, z); });
  EXPECT_EQ(graph.size(), 4U);
  EXPECT_EQ(y.download(), y0) << "recording ran the work";

  auto px = device.upload(x0);
  auto py = device.upload(y0);
  auto pz = poisoned<float>(n);
  for (int replay = 0; replay < 3; ++replay) {
    SCOPED_TRACE(replay);
    graph.launch(stream);
    sequence(stream, a, s, px, py, pz);  // the same work, run
    stream.synchronize();
    const std::vector<float> got = z.download();
    const std::vector<float> want = pz.download();
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], want[i]) << "element " << i;
    }
    EXPECT_EQ(y.download(), py.download());
  }
  // The host reference for the first replay's y.
  const std::vector<float> first = [&] {
    std::vector<float> v(y0);
    for (std::size_t i = 0; i < n; ++i) {
      v[i] = (a * x0[i] + v[i]) * s - 1.0f;
    }
    return v;
  }();
  auto check = device.upload(y0);
  auto unused = poisoned<float>(n);
  const Graph again = Graph::record(stream, [&] { sequence(stream, a, s, x, check, unused); });
  again.launch();  // on the default stream
  device.synchronize();
  const std::vector<float> got = check.download();
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_NEAR(got[i], first[i], 1e-5f * (1.0f + std::abs(first[i]))) << "element " << i;
  }
}

TEST_F(Graphs, AHundredLaunchesReplayedTenTimes) {
  const int n = 257;
  auto increment = program.kernel<int*, int>("increment", device);
  const std::vector<int> start = random_vector<int>(n, -1000, 1000);
  auto x = device.upload(start);
  const Stream stream = device.create_stream();
  const Graph graph = Graph::record(stream, [&] {
    for (int i = 0; i < 100; ++i) {
      increment.launch(stream, LaunchConfig::for_elements(n, 64), x, n);
    }
  });
  EXPECT_EQ(graph.size(), 100U);
  for (int replay = 0; replay < 10; ++replay) {
    graph.launch(stream);
  }
  stream.synchronize();
  const std::vector<int> got = x.download();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(got[i], start[i] + 1000) << "element " << i;
  }
}

TEST_F(Graphs, TheGraphKeepsItsKernelsLoaded) {
  auto x = device.upload(std::vector<int>(64, 5));
  const Stream stream = device.create_stream();
  Graph graph;
  {
    const Program alone = Program::from_source("alone.cu", kSource);
    const auto increment = alone.kernel<int*, int>("increment", device);
    // A variant too: its module is the graph's to keep.
    const auto fixed = increment.specialize<1>(64);
    graph = Graph::record(stream, [&] {
      increment.launch(stream, LaunchConfig{.grid = {1}, .block = {64}}, x, 64);
      fixed.launch(stream, LaunchConfig{.grid = {1}, .block = {64}}, x);
    });
  }
  graph.launch(stream);
  graph.launch(stream);
  stream.synchronize();
  EXPECT_EQ(x.download(), std::vector<int>(64, 9));
}

TEST_F(Graphs, AGraphWhoseBufferWasFreedIsRefused) {
  auto increment = program.kernel<int*, int>("increment", device);
  const Stream stream = device.create_stream();
  auto kept = device.upload(std::vector<int>(32, 0));
  Graph graph;
  {
    auto gone = device.upload(std::vector<int>(32, 0));
    graph = Graph::record(stream, [&] {
      increment.launch(stream, LaunchConfig{.grid = {1}, .block = {32}}, kept, 32);
      increment.launch(stream, LaunchConfig{.grid = {1}, .block = {32}}, gone, 32);
    });
    graph.launch(stream);
    stream.synchronize();
  }
  // A new buffer may now sit where the freed one was: the graph must not take it for it.
  auto newcomer = device.upload(std::vector<int>(32, 0));
  const std::string error = expect_throw<UsageError>([&] { graph.launch(stream); }).what();
  EXPECT_TRUE(contains(error, "freed after the recording")) << error;
  EXPECT_TRUE(contains(error, "argument 0 of kernel 'increment' of 'graph.cu'")) << error;
  EXPECT_TRUE(contains(error, "(operation 2)")) << error;
  EXPECT_EQ(kept.download(), std::vector<int>(32, 1)) << "the refused replay ran";
  EXPECT_EQ(newcomer.download(), std::vector<int>(32, 0));
}

TEST_F(Graphs, WhatARecordingCannotHoldIsRefusedAndTheStreamStaysUsable) {
  auto increment = program.kernel<int*, int>("increment", device);
  const Stream stream = device.create_stream();
  auto x = device.upload(std::vector<int>(16, 0));
  std::vector<int> host(16, 0);
  const LaunchConfig one{.grid = {1}, .block = {16}};
  const auto refused = [&](const std::function<void()>& inside, const std::string& message) {
    const std::string error = expect_throw<UsageError>([&] {
                                (void)Graph::record(stream, [&] {
                                  increment.launch(stream, one, x, 16);
                                  inside();
                                });
                              }).what();
    EXPECT_TRUE(contains(error, message)) << error;
  };
  refused([&] { stream.synchronize(); }, "waiting on a stream of");
  refused([&] { device.synchronize(); }, "while one of its streams records a graph");
  refused([&] { x.upload(host, stream); }, "upload on a stream of");
  refused([&] { x.download(std::span<int>(host), stream); }, "download on a stream of");
  refused([&] { increment.launch(stream, one, std::span<int>(host), 16); },
          "a host span argument cannot be recorded");
  refused([&] { (void)Graph::record(stream, [] {}); }, "recording a graph already");
  // None of those launches ran, and the stream works as before.
  increment.launch(stream, one, x, 16);
  stream.synchronize();
  EXPECT_EQ(x.download(), std::vector<int>(16, 1));
  // An empty recording is a graph of nothing.
  const Graph nothing = Graph::record(stream, [] {});
  EXPECT_EQ(nothing.size(), 0U);
  nothing.launch(stream);
  stream.synchronize();
  EXPECT_TRUE(contains(expect_throw<UsageError>([] { Graph().launch(); }).what(), "empty Graph"));
}

TEST_F(Graphs, SetArgumentsReachReplaysEnqueuedAfterItAndOnlyThose) {
  const std::size_t n = 20000 + rng() % 20000;
  const int count = static_cast<int>(n);
  const std::vector<float> x0 = random_vector<float>(n, -1.0f, 1.0f);
  const std::vector<float> x1 = random_vector<float>(n, -1.0f, 1.0f);
  const std::vector<float> y0 = random_vector<float>(n, -1.0f, 1.0f);
  const float a0 = random_vector<float>(1, 0.5f, 2.0f)[0];
  const float a1 = -random_vector<float>(1, 0.5f, 2.0f)[0];
  const float s1 = random_vector<float>(1, 0.5f, 1.5f)[0];
  const Stream stream = device.create_stream();
  auto x = device.upload(x0);
  auto other_x = device.upload(x1);
  auto y = poisoned<float>(n);
  const LaunchConfig config = LaunchConfig::for_elements(count, 128);
  const Graph graph = Graph::record(stream, [&] {
    axpy.launch(stream, config, a0, x, y, count);
    scale.launch(stream, config, y, 1.0f, count);
  });
  EXPECT_EQ(graph.size(), 2U);
  EXPECT_EQ(graph.launches(), 2U);

  y.upload(y0, stream);
  graph.launch(stream);  // a0 x + y, then y * 1 - 1: with the recorded values
  // Set while that replay may still wait or run: it keeps its values, the next one gets these.
  graph.set_arguments(0, axpy, a1, other_x, y, count);
  graph.set_arguments(1, scale, y, s1, count);
  graph.launch(stream);  // a1 x1 + y, then y * s1 - 1
  stream.synchronize();
  std::vector<float> want(y0);
  for (std::size_t i = 0; i < n; ++i) {
    want[i] = (a0 * x0[i] + want[i]) * 1.0f - 1.0f;
    want[i] = (a1 * x1[i] + want[i]) * s1 - 1.0f;
  }
  const std::vector<float> got = y.download();
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_NEAR(got[i], want[i], 1e-5f * (1.0f + std::abs(want[i]))) << "element " << i;
  }
  // Later replays keep the values set last; the first launch's new buffer is its own now.
  y.upload(y0, stream);
  graph.set_arguments(1, scale, y, 1.0f, count);
  graph.launch(stream);
  stream.synchronize();
  const std::vector<float> again = y.download();
  for (std::size_t i = 0; i < n; ++i) {
    const float expected = (a1 * x1[i] + y0[i]) - 1.0f;
    ASSERT_NEAR(again[i], expected, 1e-5f * (1.0f + std::abs(expected))) << "element " << i;
  }
}

TEST_F(Graphs, SetArgumentsRefusesWhatTheGraphCannotTakeAndKeepsItAsItWas) {
  auto increment = program.kernel<int*, int>("increment", device);
  const Stream stream = device.create_stream();
  auto x = device.upload(std::vector<int>(64, 0));
  auto mirror = poisoned<int>(64);
  const LaunchConfig one{.grid = {1}, .block = {64}};
  const Graph graph = Graph::record(stream, [&] {
    increment.launch(stream, one, x, 64);
    mirror.copy_from(x, stream);  // copies are not counted among launches
    increment.launch(stream, one, x, 32);
  });
  EXPECT_EQ(graph.size(), 3U);
  EXPECT_EQ(graph.launches(), 2U);
  std::string error =
      expect_throw<UsageError>([&] { graph.set_arguments(2, increment, x, 64); }).what();
  EXPECT_TRUE(contains(error, "has 2 kernel launch(es); there is no launch 2")) << error;
  error = expect_throw<UsageError>([&] { graph.set_arguments(0, scale, nullptr, 2.0f, 3); }).what();
  EXPECT_TRUE(contains(error, "launch 0 of a graph recorded on")) << error;
  EXPECT_TRUE(contains(error, "runs kernel 'increment'")) << error;
  EXPECT_TRUE(contains(error, "not kernel 'scale'")) << error;
  // The same kernel through a variant is another kernel.
  const auto fixed = increment.specialize<1>(64);
  error = expect_throw<UsageError>([&] { graph.set_arguments(0, fixed, x); }).what();
  EXPECT_TRUE(contains(error, "runs kernel 'increment'")) << error;
  DeviceBuffer<int> moved = device.upload(std::vector<int>(64, 0));
  DeviceBuffer<int> taken = std::move(moved);
  error = expect_throw<LaunchError>([&] {
            graph.set_arguments(0, increment, moved, 64);  // NOLINT(bugprone-use-after-move)
          }).what();
  EXPECT_TRUE(contains(error, "argument 0 is an empty DeviceBuffer")) << error;
  EXPECT_TRUE(
      contains(expect_throw<UsageError>([&] { Graph().set_arguments(0, increment, x, 1); }).what(),
               "empty Graph"));
  // Nothing changed: the replay increments all 64, then the first 32.
  graph.launch(stream);
  stream.synchronize();
  std::vector<int> want(64, 1);
  std::fill(want.begin(), want.begin() + 32, 2);
  EXPECT_EQ(x.download(), want);
  EXPECT_EQ(mirror.download(), std::vector<int>(64, 1));
  EXPECT_EQ(taken.download(), std::vector<int>(64, 0));
}

TEST_F(Graphs, ABufferReplacedBySetArgumentsMayGoAndItsReplacementIsChecked) {
  auto increment = program.kernel<int*, int>("increment", device);
  const Stream stream = device.create_stream();
  const LaunchConfig one{.grid = {1}, .block = {32}};
  auto kept = device.upload(std::vector<int>(32, 0));
  Graph graph;
  {
    auto first = device.upload(std::vector<int>(32, 0));
    graph = Graph::record(stream, [&] {
      increment.launch(stream, one, first, 32);
      increment.launch(stream, one, kept, 32);
    });
    graph.set_arguments(0, increment, kept, 32);
  }
  graph.launch(stream);  // `first` is gone, but no launch uses it now
  stream.synchronize();
  EXPECT_EQ(kept.download(), std::vector<int>(32, 2));
  {
    auto second = device.upload(std::vector<int>(32, 0));
    graph.set_arguments(1, increment, second, 32);
    graph.launch(stream);
    stream.synchronize();
    EXPECT_EQ(second.download(), std::vector<int>(32, 1));
  }
  const std::string error = expect_throw<UsageError>([&] { graph.launch(stream); }).what();
  EXPECT_TRUE(contains(error, "freed after the recording")) << error;
  EXPECT_TRUE(contains(error, "argument 0 of kernel 'increment' of 'graph.cu'")) << error;
  EXPECT_TRUE(contains(error, "(launch 1)")) << error;
  EXPECT_EQ(kept.download(), std::vector<int>(32, 3)) << "the refused replay ran";
}

TEST_F(Graphs, AManagedBufferCarriesHostDataIntoEachReplay) {
  // Host copies are not recorded; a managed buffer that the host fills between replays is.
  const std::size_t n = 1000 + rng() % 3000;
  const int count = static_cast<int>(n);
  const float s = random_vector<float>(1, 0.5f, 1.5f)[0];
  const Stream stream = device.create_stream();
  ManagedBuffer<float> in = device.alloc_managed<float>(n);
  auto y = poisoned<float>(n);
  const Graph graph = Graph::record(stream, [&] {
    y.copy_from(in, stream);
    scale.launch(stream, LaunchConfig::for_elements(count, 128), y, s, count);
  });
  for (int replay = 0; replay < 3; ++replay) {
    SCOPED_TRACE(replay);
    const std::vector<float> values = random_vector<float>(n, -1.0f, 1.0f);
    std::copy(values.begin(), values.end(), in.host().begin());
    graph.launch(stream);
    stream.synchronize();
    const std::vector<float> got = y.download();
    for (std::size_t i = 0; i < n; ++i) {
      const float want = values[i] * s - 1.0f;
      ASSERT_NEAR(got[i], want, 1e-6f * (1.0f + std::abs(want))) << "element " << i;
    }
  }
}

TEST_F(Graphs, AStreamThatJoinsARecordingHasItsWorkReplayedInOrder) {
  const std::size_t n = 20000 + rng() % 20000;
  const int count = static_cast<int>(n);
  const float a = random_vector<float>(1, -2.0f, 2.0f)[0];
  const float s = random_vector<float>(1, 0.5f, 1.5f)[0];
  const float s2 = random_vector<float>(1, 1.5f, 2.5f)[0];
  const std::vector<float> x0 = random_vector<float>(n, -1.0f, 1.0f);
  const std::vector<float> y0 = random_vector<float>(n, -1.0f, 1.0f);
  const std::vector<float> z0 = random_vector<float>(n, -1.0f, 1.0f);
  const Stream main = device.create_stream();
  const Stream side = device.create_stream();
  auto x = device.upload(x0);
  auto y = device.upload(y0);
  auto z = device.upload(z0);
  const Graph graph = Graph::record(main, [&] { fork_join(main, side, a, s, x, y, z); });
  EXPECT_EQ(graph.size(), 3U);
  EXPECT_EQ(graph.launches(), 3U);
  EXPECT_EQ(y.download(), y0) << "recording ran the side stream's work";
  side.synchronize();  // the side stream is its own again

  auto px = device.upload(x0);
  auto py = device.upload(y0);
  auto pz = device.upload(z0);
  for (int replay = 0; replay < 3; ++replay) {
    SCOPED_TRACE(replay);
    graph.launch(main);
    fork_join(main, side, a, s, px, py, pz);  // the same work, run
    main.synchronize();
    EXPECT_EQ(y.download(), py.download());
    const std::vector<float> got = z.download();
    const std::vector<float> want = pz.download();
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], want[i]) << "element " << i;
    }
  }
  // Against the host, from fresh inputs; then with launch 0, the side stream's (launches are
  // numbered in the order they were recorded, across streams), given another factor.
  for (const float factor : {s, s2}) {
    SCOPED_TRACE(factor);
    if (factor != s) {
      graph.set_arguments(0, scale, y, factor, count);
    }
    y.upload(y0);
    z.upload(z0);
    graph.launch();
    device.synchronize();
    const std::vector<float> got = z.download();
    for (std::size_t i = 0; i < n; ++i) {
      const float want = a * (y0[i] * factor - 1.0f) + (a * x0[i] + z0[i]);
      ASSERT_NEAR(got[i], want, 1e-5f * (1.0f + std::abs(want))) << "element " << i;
    }
  }
  const std::string error =
      expect_throw<UsageError>([&] { graph.set_arguments(1, scale, y, s, count); }).what();
  EXPECT_TRUE(contains(error, "launch 1 of a graph recorded on")) << error;
  EXPECT_TRUE(contains(error, "runs kernel 'axpy'")) << error;
}

TEST_F(Graphs, AStreamThatJoinedARecordingMustBeJoinedBack) {
  auto increment = program.kernel<int*, int>("increment", device);
  const Stream main = device.create_stream();
  const Stream side = device.create_stream();
  const Stream third = device.create_stream();
  auto x = device.upload(std::vector<int>(32, 0));
  const LaunchConfig one{.grid = {1}, .block = {32}};
  const auto refused = [&](const std::function<void()>& work, const std::string& which) {
    const std::string error = expect_throw<UsageError>([&] {
                                (void)Graph::record(main, [&] {
                                  increment.launch(main, one, x, 32);
                                  work();
                                });
                              }).what();
    EXPECT_TRUE(contains(error, "1 stream(s) that joined it (the ")) << error;
    EXPECT_TRUE(contains(error, which + " to join)")) << error;
    EXPECT_TRUE(contains(error, "make the recording stream wait for it")) << error;
  };
  // Never joined back.
  refused(
      [&] {
        side.wait(main.record());
        increment.launch(side, one, x, 32);
      },
      "1st");
  // Joined, with nothing to do: joined back all the same.
  refused([&] { side.wait(main.record()); }, "1st");
  // Work after the join back.
  refused(
      [&] {
        side.wait(main.record());
        main.wait(side.record());
        increment.launch(side, one, x, 32);
      },
      "1st");
  // Joined back to a stream that joined, which is itself joined back before that.
  refused(
      [&] {
        side.wait(main.record());
        main.wait(side.record());
        third.wait(side.record());
        increment.launch(third, one, x, 32);
        side.wait(third.record());
      },
      "2nd");
  // Nothing ran, and every stream works as before.
  increment.launch(side, one, x, 32);
  side.synchronize();
  increment.launch(third, one, x, 32);
  third.synchronize();
  EXPECT_EQ(x.download(), std::vector<int>(32, 2));

  // Joined back through another joined stream: the recording stream waits for all of it.
  const Graph graph = Graph::record(main, [&] {
    side.wait(main.record());
    third.wait(side.record());
    increment.launch(third, one, x, 32);
    side.wait(third.record());
    increment.launch(side, one, x, 32);
    main.wait(side.record());
    {  // a stream whose last handle goes while it is in the recording stays until it ends
      const Stream passing = device.create_stream();
      passing.wait(main.record());
      increment.launch(passing, one, x, 32);
      main.wait(passing.record());
    }
  });
  EXPECT_EQ(graph.launches(), 3U);
  graph.launch(main);
  graph.launch(main);
  main.synchronize();
  EXPECT_EQ(x.download(), std::vector<int>(32, 8));
}

TEST_F(Graphs, AnEventRecordedInARecordingMarksAPointOfItOnly) {
  auto increment = program.kernel<int*, int>("increment", device);
  const Stream main = device.create_stream();
  const Stream side = device.create_stream();
  const Stream other = device.create_stream();
  auto x = device.upload(std::vector<int>(16, 0));
  const LaunchConfig one{.grid = {1}, .block = {16}};
  const auto refused = [](const std::function<void()>& call, const std::string& message) {
    const std::string error = expect_throw<UsageError>(call).what();
    EXPECT_TRUE(contains(error, message)) << error;
  };
  Event inside;
  const Graph graph = Graph::record(main, [&] {
    increment.launch(main, one, x, 16);
    inside = main.record();
    refused([&] { inside.synchronize(); }, "marks a point of the recording");
    refused([&] { (void)inside.ready(); }, "marks a point of the recording");
    refused([&] { (void)Event::elapsed_ms(inside, inside); }, "marks a point of the recording");
    const Event outside = other.record();
    refused([&] { main.wait(outside); }, "cannot wait for an event recorded outside the recording");
    refused([&] { (void)Graph::record(other, [&] { other.wait(inside); }); },
            "an event recorded in another graph recording");
    side.wait(inside);
    refused([&] { side.synchronize(); }, "waiting on a stream of");
    increment.launch(side, one, x, 16);
    main.wait(side.record());
  });
  refused([&] { other.wait(inside); }, "after that recording ended");
  refused([&] { inside.synchronize(); }, "marks a point of the recording");
  other.synchronize();  // `other` never joined
  graph.launch(main);
  main.synchronize();
  EXPECT_EQ(x.download(), std::vector<int>(16, 2));
}

}  // namespace
}  // namespace kjit::test
