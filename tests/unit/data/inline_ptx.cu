// Inline PTX in host bitcode: what the CPU backend's code generator cannot assemble.
__global__ void lane_ids(unsigned* out) {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  out[threadIdx.x] = r;
}
