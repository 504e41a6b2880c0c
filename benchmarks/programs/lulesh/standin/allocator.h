// A stand-in for the allocator.h that upstream/lulesh.cu includes, for the nvcc build of the
// shipped program: LULESH's own allocator.h and allocator.cu carry NVIDIA's "All Rights Reserved"
// notice and are not copied here. This is kjit's code, the interface lulesh.cu uses and nothing
// more: allocate makes a new vector of `size` elements (cudaMalloc through thrust), free deletes
// it; no pool keeps memory from one call to the next.
#pragma once

template <class Vector>
struct Allocator {
  static Vector* allocate(int size) { return new Vector(size); }
  static Vector* free(Vector* vector, int /*size*/) {
    delete vector;
    return nullptr;
  }
};
