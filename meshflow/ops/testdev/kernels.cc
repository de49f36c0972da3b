// Copyright 2026 The meshflow Authors.
// The test device's kernels: each op's CPU kernel, run on host views of the test device's
// memory (device/testdev/testdev.h), with its outputs copied into the device's memory. The
// inputs are never read through their device addresses, so a path that forgets to go
// through a kernel or a copy faults (ASan names it).
#include <vector>

#include "meshflow/device/testdev/testdev.h"
#include "meshflow/ops/registry.h"

namespace mf {

void register_testdev_kernels(OpRegistry& r) {
  r.add_device_kernels("testdev", [](const OpDef& op) -> Kernel {
    return [&op](const std::vector<Tensor>& inputs, const KernelContext& ctx) {
      std::vector<Tensor> host;
      host.reserve(inputs.size());
      for (const Tensor& t : inputs) host.push_back(device::testdev::host_view(t));
      std::vector<Tensor> outputs;
      for (const Tensor& t : op.kernel(host, ctx)) outputs.push_back(t.copy_to(device::testdev::device().memory()));
      return outputs;
    };
  });
}

}  // namespace mf
