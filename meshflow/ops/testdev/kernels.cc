// Copyright 2026 The meshflow Authors.
// The test device's kernels: each op's CPU kernel, run on host views of the test device's
// memory (device/testdev/testdev.h), its outputs written where the caller gave memory for
// them (KernelContext::output) or copied into the device's memory. The
// inputs are never read through their device addresses, so a path that forgets to go
// through a kernel or a copy faults (ASan names it). Graph mode's fused chains run as a
// GPU's do: their chain program (ops/chain_program.h) through the one interpreter, here on
// the host, so the CPU-run tests check what a GPU's fused chains compute.
#include <memory>
#include <utility>
#include <vector>

#include "meshflow/device/testdev/testdev.h"
#include "meshflow/ops/chain_program.h"
#include "meshflow/ops/registry.h"

namespace mf {

namespace {
// What the CPU kernel sees of `t`: a host view of the test device's memory.
Tensor seen_from_host(const Tensor& t) {
  return device::testdev::is_testdev(t.memory()) ? device::testdev::host_view(t) : t;
}
// A copy of the host tensor `t` in `memory`, its bytes as they lie (a channels-last result
// stays so: Tensor::copy_to makes row-major copies outside host memory).
Tensor on_device(const Tensor& t, Memory& memory) {
  Tensor out = Tensor::empty(t.shape(), t.dtype(), memory);
  if (t.nbytes()) memory.copy_from_host(out.data(), t.data(), t.nbytes());
  return channels_last(t.format()) ? out.with_format(t.format()) : out;
}
}  // namespace

void register_testdev_kernels(OpRegistry& r) {
  OpRegistry::DeviceType type;
  type.from_host = [](const OpDef& op) -> Kernel {
    return [&op](const std::vector<Tensor>& inputs, const KernelContext& ctx) {
      std::vector<Tensor> host, given;
      host.reserve(inputs.size());
      for (const Tensor& t : inputs) host.push_back(seen_from_host(t));
      KernelContext on_host = ctx;
      if (ctx.given) {
        for (const Tensor& t : *ctx.given) given.push_back(seen_from_host(t));
        on_host.given = &given;
      }
      std::vector<Tensor> outputs = op.kernel(host, on_host);
      // The op runs on its inputs' device (creation ops have none: testdev:0).
      Memory* memory = &device::testdev::device().memory();
      for (const Tensor& t : inputs) {
        if (device::testdev::is_testdev(t.memory())) {
          memory = &t.memory();
          break;
        }
      }
      for (size_t k = 0; k < outputs.size(); ++k) {
        // Written where the caller wanted it: hand back the device's tensor; else a copy.
        const bool in_place = k < given.size() && given[k].nbytes() > 0 && outputs[k].data() == given[k].data() &&
                              outputs[k].shape() == given[k].shape();
        outputs[k] = in_place ? (*ctx.given)[k] : on_device(outputs[k], *memory);
      }
      return outputs;
    };
  };
  type.program = [](std::shared_ptr<const ChainProgram> program) -> Kernel {
    return [program](const std::vector<Tensor>& inputs, const KernelContext& ctx) {
      Memory& memory = inputs.empty() ? device::testdev::device().memory() : inputs[0].memory();
      ChainArgs args;
      for (size_t k = 0; k < inputs.size(); ++k) args.in[k] = seen_from_host(inputs[k]).data();
      std::vector<Tensor> outputs;
      for (size_t k = 0; k < ctx.outputs.size(); ++k) {
        const Shape& shape = ctx.output_boxes[k].extent;
        const DType dtype = ctx.outputs[k].dtype;
        const Tensor* given = ctx.given && k < ctx.given->size() ? &(*ctx.given)[k] : nullptr;
        const bool fits = given && given->nbytes() > 0 && given->shape() == shape && given->dtype() == dtype &&
                          &given->memory() == &memory;
        outputs.push_back(fits ? *given : Tensor::empty(shape, dtype, memory));
        args.out[k] = seen_from_host(outputs.back()).data();
      }
      run_chain_on_host(*program, args);
      return outputs;
    };
  };
  r.add_device_type("testdev", std::move(type));
}

}  // namespace mf
