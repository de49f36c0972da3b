// Copyright 2026 The meshflow Authors.
// The meta device ("meta"), PyTorch's: tensors with a shape and a dtype but no values, for
// building a model without its memory (deferred initialization: `with mf.device("meta"):`,
// then Module.to_empty and the initializers) and for running it for its shapes only. Its
// memory holds no bytes: an allocation of any size gives a block of addresses no host or
// device code may read (non-canonical, as the test device's), and its figures stay zero. Its
// kernels (ops/meta) make their outputs of the shapes and dtypes the op's shape inference gave,
// and compute nothing. A copy into it is free; a copy out of it (to_host, numpy, item, to
// another device) throws NoDataError at issue (vm::copy_to). One device (index 0, as the
// CPU's, whatever the index). Thread-safe, as device.h says.
#pragma once

#include <stdexcept>

#include "meshflow/device/device.h"

namespace mf::device::meta {

// A read of the values of a meta tensor: PyTorch's NotImplementedError "Cannot copy out of
// meta tensor; no data!" (python/bindings.cc raises it as that class).
class NoDataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The meta device (registered as "meta"), created on first use, never destroyed.
Device& device();
// Whether `memory` is the meta device's.
bool is_meta(const Memory& memory);

}  // namespace mf::device::meta
