"""torch.distributed.tensor: DTensor is meshflow's global tensor (CONCEPTS.md section 3).

torch's placements are meshflow's SBP, one per mesh dimension: Shard(d) is split(d),
Replicate() broadcast, Partial() partial_sum ("max" / "min": partial_max / partial_min).
A DTensor's placement is its device mesh's (device_mesh.py); `redistribute` is boxing, with
its one planner; an op on DTensors is the op on global tensors, its result a global tensor
whose `placements` are the SBP inference's choice.

What differs from meshflow's own calls, to keep torch's meaning:
- torch chunks a sharded dimension as torch.chunk does (parts of ceil(n / k), the last ones
  smaller or empty), meshflow balances it (CONCEPTS.md section 2). Both agree on even sizes
  and on 2 ranks; elsewhere `DTensor.to_local` and `DTensor.from_local` convert between the
  two (the dimensions whose parts differ are gathered, then sliced), so that local shapes are
  torch's. meshflow's `Tensor.to_local` keeps meshflow's parts.
- `to_local`'s gradient is laid out as `grad_placements` (default: the tensor's own): a
  replicated result's local gradient is each rank's copy, not a partial sum, as torch's.
- `distribute_tensor` takes the value of mesh rank `src_data_rank` (torch's default 0), or,
  with src_data_rank=None, each rank's own.
Conversions are collective: every rank calls them alike, from the thread that issues ops.
"""
from ... import _C, _inplace
from ... import env as _env
from ... import sbp as _sbp
from ... import autograd as _autograd
from ... import _ops_creation as _creation
from ... import _placement as _placements
from ..._placement import placement as _placement
from ..._tensor import Tensor, no_grad
from ...nn import Parameter as _Parameter
from ..device_mesh import DeviceMesh, init_device_mesh


class Placement:
    """A DTensor's layout along one mesh dimension (torch.distributed.tensor.placement_types)."""

    def is_shard(self, dim=None):
        return isinstance(self, Shard) and (dim is None or self.dim == dim)

    def is_replicate(self):
        return isinstance(self, Replicate)

    def is_partial(self, reduce_op=None):
        return isinstance(self, Partial) and (reduce_op is None or self.reduce_op == reduce_op)

    def __eq__(self, other):
        return type(self) is type(other) and vars(self) == vars(other)

    def __hash__(self):
        return hash((type(self).__name__,) + tuple(sorted(vars(self).items())))


class Shard(Placement):
    def __init__(self, dim):
        self.dim = dim

    def __repr__(self):
        return f"Shard(dim={self.dim})"

    def __str__(self):  # torch's short form (str(p), an f-string); repr is the long one
        return f"S({self.dim})"


class Replicate(Placement):
    def __repr__(self):
        return "Replicate()"

    def __str__(self):
        return "R"


class Partial(Placement):
    _SBP = {"sum": _sbp.partial_sum, "max": _sbp.partial_max, "min": _sbp.partial_min}

    def __init__(self, reduce_op="sum"):
        if reduce_op not in self._SBP:
            raise ValueError(f"Partial: reduce_op {reduce_op!r} is not supported; meshflow's partial values reduce "
                             f"by {sorted(self._SBP)}")
        self.reduce_op = reduce_op

    def __repr__(self):
        return f"Partial({self.reduce_op})"

    def __str__(self):
        return f"P({self.reduce_op})"


def _to_sbp(place, ndim):
    if isinstance(place, Shard):
        if not -ndim <= place.dim < max(ndim, 1):
            raise IndexError(f"Shard(dim={place.dim}) of a tensor of {ndim} dimensions")
        return _sbp.split(place.dim % ndim)
    if isinstance(place, Replicate):
        return _sbp.broadcast
    if isinstance(place, Partial):
        return Partial._SBP[place.reduce_op]
    raise TypeError(f"placements hold Shard, Replicate or Partial values; got {place!r}")


def _from_sbp(s):
    if s.is_split:
        return Shard(s.dim)
    if s == _sbp.broadcast:
        return Replicate()
    return Partial({_sbp.partial_sum: "sum", _sbp.partial_max: "max", _sbp.partial_min: "min"}[s])


# Root meshes by placement, so that an op's result (a global tensor) names the mesh it is on.
_meshes = {}


def _mesh_of(t):
    mesh = getattr(t, "_mesh", None)
    if mesh is not None:
        return mesh
    placement = t.placement
    key = _placements.key(placement)
    if key not in _meshes:
        _meshes[key] = DeviceMesh(placement.type, placement.ranks)
    return _meshes[key]


def _nd_sbp(mesh, placements, ndim, others):
    """The root mesh's N-d SBP: `placements` on the mesh's dimensions, `others(axis)` elsewhere."""
    placements = tuple(placements) if placements is not None else (Replicate(),) * mesh.ndim
    if len(placements) != mesh.ndim:
        raise ValueError(f"{len(placements)} placements {placements} for a mesh of {mesh.ndim} dimensions")
    root = mesh._root
    _meshes.setdefault(_placements.key(root._placement), root)
    _placements.dtensor_meshes.add(_placements.key(root._placement))
    return [_to_sbp(placements[mesh._dims.index(a)], ndim) if a in mesh._dims else others(a)
            for a in range(root.ndim)]


def _bounds(shape, placement, nd_sbp, torch_axes, me):
    """Rank `me`'s [start, stop) per dimension: a split on a mesh axis of `torch_axes` cuts as
    torch.chunk does (parts of ceil(n / k), the last ones smaller or empty), elsewhere as
    meshflow's balanced split (_C.local_box); nested splits cut the part the outer ones left."""
    flat = _flat(placement.ranks)
    if me not in flat:
        return [[0, n] for n in shape]
    coordinate, index = [], flat.index(me)
    for size in reversed(placement.hierarchy):
        coordinate.append(index % size)
        index //= size
    coordinate.reverse()
    if not torch_axes:
        start, extent = _C.local_box(shape, placement.hierarchy, nd_sbp, coordinate)
        return [[lo, lo + n] for lo, n in zip(start, extent)]
    bounds = [[0, n] for n in shape]
    for axis, s in enumerate(nd_sbp):
        if not s.is_split:
            continue
        d, k, c = s.dim, placement.hierarchy[axis], coordinate[axis]
        start, n = bounds[d][0], bounds[d][1] - bounds[d][0]
        if axis in torch_axes:
            chunk = -(-n // k)
            lo, hi = min(c * chunk, n), min((c + 1) * chunk, n)
        else:
            (lo,), (size,) = _C.local_box([n], [k], [_sbp.split(0)], [c])
            hi = lo + size
        bounds[d] = [start + lo, start + hi]
    return bounds


def _flat(ranks):
    return [r for row in ranks for r in _flat(row)] if isinstance(ranks, list) else [ranks]


def _torch_local(g, mesh):
    """g's local part with torch's chunking on the mesh's dimensions (no gradient recorded)."""
    placement, nd_sbp = g.placement, list(g.sbp)
    shape, me = list(g.shape), _env.get_rank()
    if _parts_agree(g, mesh):
        return Tensor(_C.to_local(g._impl))  # meshflow's part
    torch_axes = set(mesh._dims)
    wanted = _bounds(shape, placement, nd_sbp, torch_axes, me)
    # Gather the dimensions whose parts differ, along the mesh's axes, and cut torch's part.
    gathered = [_sbp.broadcast if s.is_split and a in torch_axes else s for a, s in enumerate(nd_sbp)]
    wide = g.to_global(placement, gathered)
    have = _bounds(shape, placement, gathered, set(), me)
    local = wide._part()
    return local[tuple(slice(lo - h[0], hi - h[0]) for (lo, hi), h in zip(wanted, have))].contiguous()


def _parts_agree(g, mesh):
    """Whether torch's chunks on the mesh's dimensions are meshflow's parts, on every rank.
    Decided alike on every rank (the gather _torch_local makes otherwise is collective), at
    once where every split is even: there both cuts agree."""
    placement, nd_sbp, shape, torch_axes = g.placement, list(g.sbp), list(g.shape), set(mesh._dims)
    return _even(shape, placement, nd_sbp) or all(
        _bounds(shape, placement, nd_sbp, torch_axes, r) == _bounds(shape, placement, nd_sbp, set(), r)
        for r in _flat(placement.ranks))


def _even(shape, placement, nd_sbp):
    sizes = list(shape)
    for axis, s in enumerate(nd_sbp):
        if s.is_split:
            if sizes[s.dim] % placement.hierarchy[axis]:
                return False
            sizes[s.dim] //= placement.hierarchy[axis]
    return True


class _ToLocal(_autograd.Function):
    @staticmethod
    def forward(ctx, g, mesh, grad_sbp):
        ctx.layout, ctx.mesh, ctx.grad_sbp, ctx.shape = (g.placement, list(g.sbp)), mesh, grad_sbp, list(g.shape)
        return _torch_local(g, mesh)

    @staticmethod
    def backward(ctx, grad):
        placement, nd_sbp = ctx.layout
        whole = _from_parts(grad, placement, ctx.grad_sbp or nd_sbp, ctx.shape)
        return whole.to_global(placement, nd_sbp), None, None


class _FromLocal(_autograd.Function):
    @staticmethod
    def forward(ctx, local, mesh, placement, nd_sbp, shape):
        ctx.mesh, ctx.layout = mesh, (placement, nd_sbp)
        return _from_parts(local, placement, nd_sbp, shape)

    @staticmethod
    def backward(ctx, grad):
        # The gradient laid out as the input was (torch redistributes it to the input's
        # placements), so that a Replicate input's local gradient is the whole sum of the
        # partial gradients its uses made (a column-parallel Linear's input), not this rank's
        # share; a Partial input's is the whole gradient, as each addend's.
        placement, nd_sbp = ctx.layout
        wanted = [_sbp.broadcast if s.is_partial else s for s in nd_sbp]
        return _torch_local(grad.to_global(placement, wanted), ctx.mesh), None, None, None, None


def _from_parts(local, placement, nd_sbp, shape):
    """The global tensor whose parts (torch's chunks on the mesh's axes) are each rank's `local`."""
    g = local.detach().to_global(placement, nd_sbp)
    if shape is not None and tuple(g.shape) != tuple(shape):
        raise ValueError(f"from_local: the ranks' parts make a tensor of shape {tuple(g.shape)}; shape= says "
                         f"{tuple(shape)}")
    return g


class _DTensorMeta(type):
    # Every global tensor is a DTensor (torch code tests isinstance(x, DTensor) on op results
    # and parameters alike).
    def __instancecheck__(cls, value):
        return isinstance(value, Tensor) and value.is_global


class DTensor(Tensor, metaclass=_DTensorMeta):
    """A global tensor that remembers the (possibly sliced) mesh it was placed on, made by
    distribute_tensor, DTensor.from_local and redistribute."""

    __slots__ = ("_mesh",)

    @classmethod
    def _wrap(cls, g, mesh):
        out = cls(g._impl)
        out._mesh = mesh
        return out

    @staticmethod
    def from_local(local_tensor, device_mesh=None, placements=None, *, run_check=False, shape=None, stride=None):
        """Each rank's `local_tensor` is its part (torch's chunk of each Shard dimension)."""
        mesh = device_mesh or _default_mesh()
        nd_sbp = _nd_sbp(mesh, placements, local_tensor.dim(), lambda a: _sbp.split(0))
        g = _FromLocal.apply(local_tensor, mesh, mesh._root._placement, nd_sbp, shape)
        return DTensor._wrap(g, mesh)

    def to_local(self, *, grad_placements=None):
        mesh = _mesh_of(self)
        batch = _batch_mesh_beside(mesh)
        if batch is not None:  # inside fully_shard's forward: local on the mesh's own axes only
            return DTensor._wrap(self, batch)
        grad_sbp = None if grad_placements is None else \
            _nd_sbp(mesh, grad_placements, self.dim(), lambda a: self.sbp[a])
        part = _ToLocal.apply(self, mesh, grad_sbp)
        if _parts_agree(self, mesh):  # torch's local tensor is the DTensor's: writes reach it
            _inplace.link_to_local(self, part)
        return part


# The meshes over which a fully_shard forward running now made its batch global (split along
# dimension 0). Inside it, a DTensor on another slice of the same root mesh (a tensor-parallel
# layer's output, on the "tp" slice beside FSDP's "dp") is local on its own axes only: its
# to_local stays global over the batch's, so that it meets the block's other (global)
# activations, as torch's local tensors meet the block's local input. Its shape is then the
# whole one on the tensor-parallel axes (torch's: this rank's chunk), which code that infers
# sizes (view(b, s, -1, head_dim)) follows.
_batch_meshes = []


def _batch_mesh_beside(mesh):
    for batch in _batch_meshes:
        if batch._root is mesh._root and not set(batch._dims) & set(mesh._dims):
            return batch
    return None


def _batch(local, mesh):
    """fully_shard's input: each rank's `local` its part of a batch split along dimension 0 over
    `mesh`, and the same on the root mesh's other axes (tensor parallelism's ranks share the
    batch, as torch requires of them)."""
    nd_sbp = _nd_sbp(mesh, [Shard(0)], local.dim(), lambda a: _sbp.broadcast)
    return DTensor._wrap(_FromLocal.apply(local, mesh, mesh._root._placement, nd_sbp, None), mesh)


class _DTensorParameter(_Parameter, DTensor):
    """A module's parameter placed by distribute_module, parallelize_module or fully_shard: a
    DTensor remembering its mesh, so that its to_local is torch's part."""

    __slots__ = ()


def _parameter(value, requires_grad, mesh):
    param = _DTensorParameter(value, requires_grad)
    param._mesh = mesh
    return param


def _placements_of(t):
    mesh = _mesh_of(t)
    return tuple(_from_sbp(t.sbp[a]) for a in mesh._dims)


def _redistribute(t, device_mesh=None, placements=None):
    mesh = device_mesh or _mesh_of(t)
    current = t.sbp
    nd_sbp = _nd_sbp(mesh, placements, t.dim(), lambda a: current[a])
    return DTensor._wrap(t.to_global(mesh._root._placement, nd_sbp), mesh)


def _full_tensor(t, grad_placements=None):
    mesh = _mesh_of(t)
    whole = _redistribute(t, mesh, [Replicate()] * mesh.ndim)
    return whole.to_local(grad_placements=grad_placements)


def _default_mesh():
    return init_device_mesh("cpu", (_env.get_world_size(),))


def distribute_tensor(tensor, device_mesh=None, placements=None, *, src_data_rank=0):
    """`tensor` (whole, on every rank) laid out on the mesh: the value of mesh rank
    src_data_rank (None: each rank keeps its own value's part, no communication)."""
    mesh = device_mesh or _default_mesh()
    if tensor.is_global:
        raise ValueError("distribute_tensor: the tensor is a DTensor already; call redistribute")
    root = mesh._root._placement
    nd_sbp = _nd_sbp(mesh, placements, tensor.dim(), lambda a: _sbp.broadcast)
    with no_grad():
        whole = tensor.detach()
        if src_data_rank is None:
            g = whole.to_global(root, [_sbp.broadcast] * len(root.hierarchy)).to_global(root, nd_sbp)
        else:
            # The root mesh's rank: one source for every rank of the job, as SPMD tensors need.
            source = _placement(root.type, [_flat(mesh._root._ranks.tolist())[src_data_rank]])
            g = whole.to_global(source, _sbp.broadcast).to_global(root, nd_sbp)
    out = DTensor._wrap(g, mesh)
    out.requires_grad = tensor.requires_grad
    return out


def distribute_module(module, device_mesh=None, partition_fn=None, input_fn=None, output_fn=None):
    """torch's distribute_module: partition_fn(name, submodule, mesh) places parameters (those
    it leaves local are replicated); input_fn(module, inputs, mesh) and output_fn(module,
    outputs, mesh) run around every forward."""
    mesh = device_mesh or _default_mesh()
    for name, sub in list(module.named_modules()):
        if partition_fn is not None:
            partition_fn(name, sub, mesh)
        for key, param in list(sub._parameters.items()):
            if param is not None and not param.is_global:
                setattr(sub, key, _parameter(distribute_tensor(param.detach(), mesh), param.requires_grad, mesh))
    if input_fn is not None:
        module.register_forward_pre_hook(lambda mod, inputs: input_fn(mod, inputs, mesh))
    if output_fn is not None:
        module.register_forward_hook(lambda mod, inputs, outputs: output_fn(mod, outputs, mesh))
    return module


def _factory(name, make):
    """torch.distributed.tensor's factory `name`: make(size, dtype=, placement=, sbp=) on the mesh."""
    def factory(*size, device_mesh=None, placements=None, dtype=None, requires_grad=False):
        size = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
        mesh = device_mesh or _default_mesh()
        nd_sbp = _nd_sbp(mesh, placements, len(size), lambda a: _sbp.broadcast)
        out = DTensor._wrap(make(size, dtype=dtype, placement=mesh._root._placement, sbp=nd_sbp), mesh)
        out.requires_grad = requires_grad
        return out
    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = f"torch.distributed.tensor.{name}: a DTensor made in place on the mesh (each rank its part)."
    return factory


zeros = _factory("zeros", lambda size, **kwargs: _creation.full(size, 0.0, **kwargs))
ones = _factory("ones", lambda size, **kwargs: _creation.full(size, 1.0, **kwargs))
empty = _factory("empty", lambda size, **kwargs: _creation.empty(*size, **kwargs))
rand = _factory("rand", lambda size, **kwargs: _creation.rand(*size, **kwargs))
randn = _factory("randn", lambda size, **kwargs: _creation.randn(*size, **kwargs))


def full(size, fill_value, *, device_mesh=None, placements=None, dtype=None, requires_grad=False):
    return _factory("full", lambda shape, **kwargs: _creation.full(shape, fill_value, **kwargs))(
        *size, device_mesh=device_mesh, placements=placements, dtype=dtype, requires_grad=requires_grad)


__all__ = ["DTensor", "DeviceMesh", "Partial", "Placement", "Replicate", "Shard", "distribute_module",
           "distribute_tensor", "empty", "full", "init_device_mesh", "ones", "rand", "randn", "zeros"]

from . import parallel  # noqa: E402,F401  (torch.distributed.tensor.parallel, whose styles build on the above)
