// Must compile: every conversion the launch contract allows.
#include <kjit/kjit.hpp>
#include <span>
void f(kjit::Kernel<float, const float*, float*, int> k, kjit::DeviceBuffer<float>& x,
       const kjit::DeviceBuffer<float>& cx, kjit::DeviceBuffer<float>& y, std::span<const float> hx,
       std::span<float> hy, kjit::DevicePtr<float> p, kjit::DevicePtr<const float> cp) {
  const kjit::LaunchConfig c{};
  k.launch(c, 2.0f, x, y, 4);
  k.launch(c, 2, cx, y, 4u);       // int -> float, unsigned -> int as in a call
  k.launch(c, 2.0, hx, hy, 4);     // host spans, copied in and out
  k.launch(c, 2.0f, p, p, 4);      // DevicePtr<float> for const float* and float*
  k.launch(c, 2.0f, cp, y, 4);     // DevicePtr<const float> for const float*
  k.launch(c, 2.0f, nullptr, y, 4);
  k.launch(y.device().default_stream(), c, 2.0f, x, y, 4);
}
// A volatile parameter (a kernel that polls memory other blocks write) takes the same memory.
void g(kjit::Kernel<volatile float*, const volatile int*> k, kjit::DeviceBuffer<float>& x,
       kjit::DevicePtr<int> p) {
  k.launch(kjit::LaunchConfig{}, x, p);
}
