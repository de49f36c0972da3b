// Copyright 2026 The meshflow Authors.
// A stable radix sort of (uint64 key, int64 value) pairs on the calling worker's stream, for
// the kernels that group positions by key (index_put's accumulation, embedding's backward).
// Stateless; its scratch comes from the memory given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <memory>

#include "meshflow/device/cuda/cuda_device.h"
#include "meshflow/ops/cuda/cuda_kernels.h"

namespace mf::cuda {

// Sorts keys[0, n) with values[0, n) into keys[n, 2n) and values[n, 2n), stably, reading only
// the bits that hold max_key (every key is <= max_key).
inline void sort_pairs(Memory& mem, uint64_t* keys, int64_t* values, int64_t n, uint64_t max_key) {
  int end_bit = 1;
  while (end_bit < 64 && (max_key >> end_bit) != 0) ++end_bit;
  size_t temp_bytes = 0;
  device::cuda::check(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys, keys + n, values, values + n, n, 0,
                                                      end_bit, stream()),
                      "cub::DeviceRadixSort::SortPairs");
  const std::shared_ptr<void> temp = mem.allocate(temp_bytes);
  device::cuda::check(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, keys, keys + n, values, values + n, n,
                                                      0, end_bit, stream()),
                      "cub::DeviceRadixSort::SortPairs");
}

}  // namespace mf::cuda
