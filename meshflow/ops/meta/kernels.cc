// Copyright 2026 The meshflow Authors.
// The meta device's kernels (device/meta/meta_device.h): every op's outputs, of the local
// shapes and dtypes its shape inference gave, computed from nothing. An output is where the
// caller gave memory for it, a view of the first input for an op whose output is one (a
// reshape: in-place writes through it land where PyTorch's do, in no data either way), or a
// new meta block.
#include <vector>

#include "meshflow/device/meta/meta_device.h"
#include "meshflow/ops/registry.h"

namespace mf {

void register_meta_kernels(OpRegistry& r) {
  r.add_device_type("meta", {});
  for (const OpDef* op : r.ops()) {
    r.add_kernel("meta", op->name, [op](const std::vector<Tensor>& inputs, const KernelContext& ctx) {
      std::vector<Tensor> outputs;
      outputs.reserve(ctx.outputs.size());
      for (size_t k = 0; k < ctx.outputs.size(); ++k) {
        const Shape& shape = ctx.output_boxes[k].extent;
        const DType dtype = ctx.outputs[k].dtype;
        if (ctx.given && k < ctx.given->size()) {
          const Tensor& t = (*ctx.given)[k];
          if (t.shape() == shape && t.dtype() == dtype) {
            outputs.push_back(t);
            continue;
          }
        }
        if (op->output_views_input && k == 0 && !inputs.empty() && inputs[0].dtype() == dtype) {
          outputs.push_back(inputs[0].view(0, shape));
          continue;
        }
        outputs.push_back(Tensor::empty(shape, dtype, device::meta::device().memory()));
      }
      return outputs;
    });
  }
}

}  // namespace mf
