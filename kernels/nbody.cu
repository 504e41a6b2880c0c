// An all-pairs n-body step in the shape of CUDA's classic nbody kernel: each block stages a tile
// of bodies in shared memory, and each thread accumulates the pull of the tile on its own body in
// a loop that `#pragma unroll 128` asks to unroll, between two barriers.

template <typename T>
struct Body {
  T x, y, z, mass;
};

// The acceleration that body `other` adds to `self` (softened by eps2, so that a body's pull on
// itself is zero and nearby bodies stay finite).
template <typename T>
__device__ void pull(const Body<T>& self, const Body<T>& other, T eps2, T& ax, T& ay, T& az) {
  const T dx = other.x - self.x;
  const T dy = other.y - self.y;
  const T dz = other.z - self.z;
  const T dist2 = dx * dx + dy * dy + dz * dz + eps2;
  const T inv = T(1) / sqrt(dist2);
  const T s = other.mass * inv * inv * inv;
  ax += dx * s;
  ay += dy * s;
  az += dz * s;
}

// One step of dt for n bodies (n a multiple of blockDim.x; dynamic shared memory of
// blockDim.x bodies): new velocities and positions.
template <typename T>
__global__ void nbody_step(const Body<T>* bodies, T* velocity, Body<T>* next, int n, T dt, T eps2) {
  extern __shared__ unsigned char tile_bytes[];
  Body<T>* tile = reinterpret_cast<Body<T>*>(tile_bytes);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Body<T> self = bodies[i];
  T ax = 0, ay = 0, az = 0;
  for (int start = 0; start < n; start += blockDim.x) {
    tile[threadIdx.x] = bodies[start + threadIdx.x];
    __syncthreads();
#pragma unroll 128
    for (int j = 0; j < (int)blockDim.x; ++j) {
      pull(self, tile[j], eps2, ax, ay, az);
    }
    __syncthreads();
  }
  T* v = velocity + 3 * i;
  v[0] += ax * dt;
  v[1] += ay * dt;
  v[2] += az * dt;
  next[i] = Body<T>{self.x + v[0] * dt, self.y + v[1] * dt, self.z + v[2] * dt, self.mass};
}
