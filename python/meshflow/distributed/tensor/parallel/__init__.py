"""torch.distributed.tensor.parallel: tensor parallelism as SBP (CONCEPTS.md section 8).

A style places a module's parameters (distribute_tensor) and converts its inputs and outputs
around forward (from_local / redistribute / to_local), as torch's: ColwiseParallel shards a
Linear's output features (weight Shard(0), the column split of x w), RowwiseParallel its input
features (weight Shard(1); the matmul's result is Partial and boxing sums it),
SequenceParallel replicates the parameters of a norm or dropout that runs on a sequence
shard, PrepareModuleInput / PrepareModuleOutput only convert. No collective is written here:
every conversion is a redistribute, i.e. boxing. Collective, like the module's forward.
"""
import contextlib

from ... import tensor as _dt
from .. import DTensor, Replicate, Shard, distribute_module, distribute_tensor


def _is_linear(module):
    from ....nn import Linear
    return isinstance(module, Linear)


def _is_embedding(module):
    from ....nn import Embedding
    return isinstance(module, Embedding)


def _place(module, mesh, placements):
    """Each parameter named in `placements` distributed that way (the module's others replicated)."""
    for name, place in placements.items():
        param = module._parameters.get(name)
        if param is not None and not param.is_global:
            setattr(module, name, _dt._parameter(distribute_tensor(param.detach(), mesh, [place]), param.requires_grad,
                                                 mesh))


def _as_layout(value, mesh, layout, desired):
    """A module input or output: a local tensor taken as `layout`, then moved to `desired`."""
    if layout is None or not hasattr(value, "is_global"):
        return value
    if not value.is_global:
        value = DTensor.from_local(value, mesh, [layout])
    if desired is not None and value.placements != (desired,):
        value = value.redistribute(mesh, [desired])
    return value


def _local(value, use_local_output):
    return value.to_local() if use_local_output and isinstance(value, DTensor) else value


class ParallelStyle:
    """How parallelize_module distributes one module (torch's base class)."""

    def _apply(self, module, device_mesh):
        raise NotImplementedError


class ColwiseParallel(ParallelStyle):
    def __init__(self, *, input_layouts=None, output_layouts=None, use_local_output=True):
        self.input_layout = input_layouts or Replicate()
        self.output_layout = output_layouts or Shard(-1)
        self.use_local_output = use_local_output

    def _apply(self, module, mesh):
        if _is_linear(module):
            placements = {"weight": Shard(0), "bias": Shard(0)}
        elif _is_embedding(module):
            placements = {"weight": Shard(1)}
        else:
            raise NotImplementedError(f"ColwiseParallel: supports nn.Linear and nn.Embedding, got "
                                      f"{type(module).__name__}")
        return distribute_module(
            module, mesh, lambda name, sub, m: _place(sub, m, placements) if sub is module else None,
            lambda mod, inputs, m: (_as_layout(inputs[0], m, self.input_layout, Replicate()),) + tuple(inputs[1:]),
            lambda mod, out, m: _local(_as_layout(out, m, Shard(-1), self.output_layout), self.use_local_output))


class RowwiseParallel(ParallelStyle):
    def __init__(self, *, input_layouts=None, output_layouts=None, use_local_output=True):
        self.input_layout = input_layouts or Shard(-1)
        self.output_layout = output_layouts or Replicate()
        self.use_local_output = use_local_output

    def _apply(self, module, mesh):
        if _is_linear(module):
            placements, desired = {"weight": Shard(1), "bias": Replicate()}, Shard(-1)
        elif _is_embedding(module):
            placements, desired = {"weight": Shard(0)}, Replicate()
        else:
            raise NotImplementedError(f"RowwiseParallel: supports nn.Linear and nn.Embedding, got "
                                      f"{type(module).__name__}")
        return distribute_module(
            module, mesh, lambda name, sub, m: _place(sub, m, placements) if sub is module else None,
            lambda mod, inputs, m: (_as_layout(inputs[0], m, self.input_layout, desired),) + tuple(inputs[1:]),
            lambda mod, out, m: _local(out.redistribute(m, [self.output_layout]), self.use_local_output))


class SequenceParallel(ParallelStyle):
    """Replicated parameters; the input is sharded along `sequence_dim`, and so is the output."""

    def __init__(self, *, sequence_dim=1, use_local_output=False):
        self.sequence_dim, self.use_local_output = sequence_dim, use_local_output

    def _apply(self, module, mesh):
        shard = Shard(self.sequence_dim)
        return distribute_module(
            module, mesh, None,
            lambda mod, inputs, m: (_as_layout(inputs[0], m, shard, shard),) + tuple(inputs[1:]),
            lambda mod, out, m: _local(out, self.use_local_output))


class PrepareModuleInput(ParallelStyle):
    """Converts the module's positional (and keyword) inputs: each local one is taken as its
    input_layouts entry, then moved to its desired_input_layouts entry (None: left as it is)."""

    def __init__(self, *, input_layouts=None, desired_input_layouts=None, input_kwarg_layouts=None,
                 desired_input_kwarg_layouts=None, use_local_output=False):
        self.input_layouts = _tuple(input_layouts)
        self.desired = _tuple(desired_input_layouts) or (None,) * len(self.input_layouts)
        if len(self.desired) != len(self.input_layouts):
            raise ValueError("PrepareModuleInput: input_layouts and desired_input_layouts must have the same length")
        self.kwarg_layouts = input_kwarg_layouts or {}
        self.desired_kwargs = desired_input_kwarg_layouts or {}
        self.use_local_output = use_local_output

    def _convert(self, value, mesh, layout, desired):
        return _local(_as_layout(value, mesh, layout, desired), self.use_local_output)

    def _apply(self, module, mesh):
        def prepare(mod, args, kwargs):
            args = tuple(self._convert(a, mesh, layout, desired) for a, layout, desired in
                         zip(args, self.input_layouts, self.desired)) + tuple(args[len(self.input_layouts):])
            kwargs = {k: self._convert(v, mesh, self.kwarg_layouts.get(k), self.desired_kwargs.get(k))
                      for k, v in kwargs.items()}
            return args, kwargs
        module.register_forward_pre_hook(prepare, with_kwargs=True)
        return module


class PrepareModuleOutput(ParallelStyle):
    def __init__(self, *, output_layouts, desired_output_layouts, use_local_output=True):
        self.output_layouts = _tuple(output_layouts)
        self.desired = _tuple(desired_output_layouts)
        self.use_local_output = use_local_output

    def _apply(self, module, mesh):
        def prepare(mod, inputs, outputs):
            many = isinstance(outputs, tuple)
            converted = tuple(_local(_as_layout(o, mesh, layout, desired), self.use_local_output) for o, layout, desired
                              in zip(outputs if many else (outputs,), self.output_layouts, self.desired))
            return converted if many else converted[0]
        module.register_forward_hook(prepare)
        return module


@contextlib.contextmanager
def loss_parallel():
    """torch's loss_parallel: cross_entropy (or nll_loss) of logits sharded on the class
    dimension (a ColwiseParallel head with use_local_output=False), and its backward, without
    the caller gathering them. On global tensors every loss takes any layout (its SBP
    inference places the class reduction), so the context only marks the code torch needs it
    around; the loss is a global tensor, read with full_tensor() or item()."""
    yield


def _tuple(value):
    return () if value is None else tuple(value) if isinstance(value, (tuple, list)) else (value,)


def parallelize_module(module, device_mesh=None, parallelize_plan=None):
    """Applies a style to `module`, or each style of a {submodule path: style} plan (a path
    may hold `*`, matching any one name, as torch's)."""
    import fnmatch
    mesh = device_mesh or _dt._default_mesh()
    if parallelize_plan is None:
        return module
    if isinstance(parallelize_plan, ParallelStyle):
        parallelize_plan._apply(module, mesh)
        return module
    for pattern, style in parallelize_plan.items():
        matched = [sub for name, sub in module.named_modules()
                   if name and len(name.split(".")) == len(pattern.split(".")) and fnmatch.fnmatchcase(name, pattern)]
        if not matched:
            raise ValueError(f"parallelize_module: the plan's {pattern!r} names no submodule of "
                             f"{type(module).__name__}")
        for sub in matched:
            parallelize_module(sub, mesh, style)
    return module


__all__ = ["ColwiseParallel", "ParallelStyle", "PrepareModuleInput", "PrepareModuleOutput", "RowwiseParallel",
           "SequenceParallel", "loss_parallel", "parallelize_module"]
