// Copyright 2026 The meshflow Authors.
// Where slice_scatter (ops/shape.cc) writes on a rank, shared by its CPU and CUDA kernels:
// the part of the slice that the rank's box of the target holds, so that a write costs
// what it writes. A pure function; thread-safe.
#pragma once

#include "meshflow/ops/kernel_util.h"

namespace mf::kernel {

// Element i of `extent` (the part of the slice `s` that lies in `target_box`, possibly
// empty) is target part element dst_base + i . dst_strides and takes values element
// src_base + i . src_strides, where `values` (whole on every rank) has the slice's shape or
// 1 on the dims it is broadcast along (stride 0).
struct SliceWrite {
  int64_t src_base = 0, dst_base = 0;
  Shape src_strides, dst_strides, extent;
};
SliceWrite slice_write_local(const SliceSpec& s, const Box& target_box, const Shape& values);

}  // namespace mf::kernel
