"""torch.distributed's spelling over meshflow's global tensors, for programs written for DDP.

A meshflow job is already one process per rank, started by meshflow's launcher over mpirun,
so `init_process_group` starts nothing: it checks that what the program asks for is the job
it runs in. Each collective here takes this rank's local tensor, makes it this rank's part of
a global tensor and lets boxing do the communication (`all_reduce` is P -> B, `all_gather`
S(0) -> B, `reduce_scatter_tensor` P -> S(0), `broadcast` B on one rank -> B on all), writing
the result into the tensor in place as torch's collectives do. So they are ordered like any
other op by the VM, and a rank that skips a call is reported by the same layout agreement
that reports any global op called by some ranks only.

The ranks of a call's group make it, in the same order; a rank outside the group skips it
(returns None, as torch's), so programs written for torch, where only a group's members call,
and SPMD ones, where every rank calls, both run. A call over a group that is not the whole job
runs among its ranks alone (comm::Among: its agreements and conversions involve no other
rank). A member that skips one is told so at once, on every member, naming the call. Calls are
made by the thread that issues ops, like every other op.
send / recv (and isend / irecv, batch_isend_irecv) are the exception: the ranks of each
transfer alone make them, as torch's (global/point_to_point.h). isend / irecv calls made
back to back go as one batch, issued at the first wait of one of them (or a send or recv,
which joins it, batch_isend_irecv, or the next collective), so two ranks that each isend to
the other before they receive do not wait on each other; each rank's batch with a peer must
then receive what that peer's batch sends, in order.
"""
import atexit as _atexit
import contextlib as _contextlib
import functools as _functools
import inspect as _inspect
import os as _os
import pickle as _pickle

import numpy as _np

from .. import _C
from .. import env as _env
from .. import _placement as _placements
from .._placement import placement as _placement
from .. import sbp as _sbp


class ReduceOp:
    """The reductions of all_reduce, reduce and reduce_scatter_tensor (torch's names); the
    bitwise ones take integer or bool tensors."""
    SUM = "sum"
    AVG = "avg"
    PRODUCT = "product"
    MIN = "min"
    MAX = "max"
    BAND = "band"
    BOR = "bor"
    BXOR = "bxor"


class Backend(str):
    """torch's backend names (a str: Backend("GLOO") == Backend.GLOO == "gloo"). meshflow
    keeps the name for get_backend() and picks its transport per group itself."""
    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    UCC = "ucc"
    MPI = "mpi"

    def __new__(cls, name):
        if not isinstance(name, str):
            raise ValueError(f"Backend constructor parameter must be string-ish, but got: {type(name).__name__}")
        return str.__new__(cls, getattr(Backend, name.upper(), name.lower()))


class ProcessGroup:
    """A set of ranks that collectives run over; `ranks` in world numbering, ascending."""

    def __init__(self, ranks):
        self.ranks = list(ranks)

    def size(self):
        return len(self.ranks)

    def rank(self):
        me = _env.get_rank()
        return self.ranks.index(me) if me in self.ranks else -1

    def __repr__(self):
        return f"ProcessGroup(ranks={self.ranks})"


class group:  # noqa: N801 (torch.distributed.group.WORLD)
    WORLD = None


# implicit: the default group was taken from a placement the program made, not from
# init_process_group (which may still come, once).
_state = {"initialized": False, "implicit": False, "backend": None, "world": None}


def is_available():
    return True


def is_gloo_available():
    """Whether init_process_group("gloo") works: it does (meshflow keeps the name for
    get_backend and runs its own transport)."""
    return True


def is_mpi_available():
    return True


def is_nccl_available():
    """Whether collectives between GPUs can run: where a GPU is, meshflow picks NCCL per group."""
    from .. import cuda
    return cuda.is_available()


def is_initialized():
    _join_implicitly()
    return _state["initialized"]


def is_torchelastic_launched():
    return "TORCHELASTIC_RUN_ID" in _os.environ


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name="", pg_options=None, device_id=None):
    """Joins the job meshflow's launcher started: world_size and rank, when given, must be the
    job's (there is no rendezvous to make: mpirun made the ranks). backend is kept for
    get_backend(); meshflow picks MPI or NCCL per group itself."""
    if _state["initialized"] and not _state["implicit"]:
        raise RuntimeError("trying to initialize the default process group twice!")
    size, me = _env.get_world_size(), _env.get_rank()
    if world_size not in (-1, None) and int(world_size) != size:
        raise ValueError(f"init_process_group(world_size={world_size}): this job has {size} ranks "
                         f"(meshflow's launcher sets the world size: launch with -n {world_size})")
    if rank not in (-1, None) and int(rank) != me:
        raise ValueError(f"init_process_group(rank={rank}): this process is rank {me} of the job")
    _start(backend, implicit=False)


def _start(backend, implicit):
    _state.update(initialized=True, implicit=implicit, backend=(backend or "mpi").split(":")[0].lower())
    _state["world"] = group.WORLD = ProcessGroup(range(_env.get_world_size()))


def _join_implicitly():
    """A program that made a placement (global tensors) runs on the job's ranks: the job is
    the default group, as torch's init_device_mesh makes it, so a barrier or a
    broadcast_object_list beside global tensors needs no init_process_group (one may still
    come, once)."""
    if not _state["initialized"] and _placements.made:
        _start(None, implicit=True)


def _called_init():
    """Whether the program called init_process_group (a DDP program, whose local tensors are
    each rank's part of its batch) rather than only making placements."""
    return _state["initialized"] and not _state["implicit"]


def destroy_process_group(group=None):  # noqa: A002 (torch's name)
    _flush_transfers()
    if group is None:
        _state.update(initialized=False, implicit=False, backend=None)
        _placements.made = False
        _placements.dtensor_meshes.clear()


def get_backend(group=None):  # noqa: A002
    _require_initialized("get_backend")
    return _state["backend"]


def _require_initialized(call):
    _join_implicitly()
    if not _state["initialized"]:
        raise RuntimeError(f"{call}: default process group has not been initialized, please make sure to call "
                           f"init_process_group")


def _group(group, call):  # noqa: A002
    _require_initialized(call)
    return _state["world"] if group is None else group


def get_rank(group=None):  # noqa: A002
    """This rank's index in `group` (-1 when not a member); without init_process_group, as torch,
    an error."""
    return _group(group, "get_rank").rank()


def get_world_size(group=None):  # noqa: A002
    """`group`'s size; -1 on a rank that is not a member (torch's, as get_rank's -1)."""
    g = _group(group, "get_world_size")
    return g.size() if g.rank() >= 0 else -1


def get_process_group_ranks(group):  # noqa: A002
    """The world ranks of `group`, in its rank order."""
    return list(_group(group, "get_process_group_ranks").ranks)


def get_group_rank(group, global_rank):  # noqa: A002
    """World rank `global_rank`'s index in `group` (ValueError if it is not a member, as torch's)."""
    ranks = _group(group, "get_group_rank").ranks
    if global_rank not in ranks:
        raise ValueError(f"Global rank {global_rank} is not part of group {group}")
    return ranks.index(global_rank)


def get_global_rank(group, group_rank):  # noqa: A002
    """The world rank of `group`'s rank `group_rank`."""
    ranks = _group(group, "get_global_rank").ranks
    if not 0 <= group_rank < len(ranks):
        raise ValueError(f"Group rank {group_rank} is not part of group {group}")
    return ranks[group_rank]


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False):
    """A group of `ranks` (all of them when None). Every rank of the job calls it, as torch's."""
    _require_initialized("new_group")
    size = _env.get_world_size()
    ranks = sorted(set(range(size) if ranks is None else (int(r) for r in ranks)))
    if not ranks or ranks[0] < 0 or ranks[-1] >= size:
        raise ValueError(f"new_group(ranks={ranks}): ranks must be in [0, {size - 1}] and not empty")
    g = ProcessGroup(ranks)
    if 1 < g.size() < size and g.rank() >= 0:
        # Its communicator is made here, where its members all are (torch's new_group is
        # called by each), not in its first collective, which a member may skip: there the
        # others' wait would be in the making, which the watchdog does not see.
        with _scope(g):
            _agree_on_call("meshflow.distributed.new_group")
    return g


def new_subgroups_by_enumeration(ranks_per_subgroup_list, timeout=None, backend=None, pg_options=None):
    """A group of each list of ranks (disjoint lists), and the one this rank is in (None if
    none), as torch's: (cur_subgroup, subgroups)."""
    seen, mine, subgroups = set(), None, []
    for ranks in ranks_per_subgroup_list:
        if seen & set(ranks):
            raise ValueError(f"new_subgroups_by_enumeration: rank(s) {sorted(seen & set(ranks))} are in more than "
                             f"one subgroup of {ranks_per_subgroup_list}; expected disjoint lists")
        seen |= set(ranks)
        subgroups.append(new_group(ranks))
        if _env.get_rank() in ranks:
            mine = subgroups[-1]
    return mine, subgroups


def new_subgroups(group_size=None, group=None, timeout=None, backend=None, pg_options=None):  # noqa: A002
    """The job's ranks in consecutive groups of `group_size`, and the one this rank is in, as
    torch's: (cur_subgroup, subgroups). torch's default size is the node's GPU count; here it
    must be given."""
    size = _env.get_world_size()
    if group_size is None or group_size <= 0 or size % group_size:
        raise ValueError(f"new_subgroups(group_size={group_size}): expected a size > 0 that divides the world "
                         f"size {size}")
    return new_subgroups_by_enumeration([list(range(i, i + group_size)) for i in range(0, size, group_size)])


class _Work:
    """What async_op=True returns: the VM already runs the collective in order with the ops
    after it, so waiting means only that its result is there."""

    def __init__(self, tensors):
        self._tensors = tensors

    def wait(self, timeout=None):
        from .. import synchronize
        synchronize()
        return True

    def is_completed(self):
        return True

    def result(self):
        return self._tensors

    def get_future(self):
        """A future of the collective's tensors (torch's: a list of them), set already."""
        from ..futures import Future
        future = Future()
        future.set_result(self._tensors)
        return future


def _done(async_op, *tensors):
    return _Work(list(tensors)) if async_op else None


def _collective(fn):
    """torch's collective `fn`, made by the ranks of its `group` argument: a rank outside the
    group skips it and gets None, as torch's. The members first agree that they make the same
    call: one made under `if rank == 0:` while the others wait in another (a barrier) raises on
    every member at once, naming each rank's call, instead of in the conversions inside. A
    group of one rank communicates nothing: its member makes the call alone."""
    at = list(_inspect.signature(fn).parameters).index("group")  # group's place among the arguments

    @_functools.wraps(fn)
    def run(*args, **kwargs):
        g = _group(args[at] if len(args) > at else kwargs.get("group"), fn.__name__)
        _flush_transfers()
        if g.rank() < 0:
            return None
        with _scope(g):
            if not _solo(g):
                _agree_on_call(f"meshflow.distributed.{fn.__name__}")
            return fn(*args, **kwargs)
    return run


def _scope(g):
    """Where g's calls run: among its ranks alone (comm::Among) when g is not the whole job."""
    return _C.Among(g.ranks) if g.size() < _env.get_world_size() else _contextlib.nullcontext()


def _solo(g):
    """Whether g is one rank: its collectives are that rank's tensors as they are."""
    return g.size() == 1


def _agree_on_call(name):
    """Every rank of the job (of the _scope it runs in) is in a call of this name, or all
    raise, naming each rank's."""
    _C.agree("", name)


def _local(tensor, call):
    from .._tensor import Tensor
    if not isinstance(tensor, Tensor):
        raise TypeError(f"{call}: expected a meshflow Tensor, got {type(tensor).__name__}")
    if not tensor.is_local:
        raise ValueError(f"{call} takes this rank's local tensor; a global tensor's value is already the whole "
                         f"job's (a global loss is the mean over every rank's part, which a sum would count once per "
                         f"rank): read it as it is (item()), or change its layout with to_global")
    return tensor


def _on(g, tensor, ranks=None):
    return _placement(tensor.device.type, ranks=g.ranks if ranks is None else ranks)


def _reduced(tensor, g, op, call):
    """The reduction over g of every member's `tensor`, as a local tensor on each member."""
    from .. import no_grad
    op = op if isinstance(op, str) else str(op)
    with no_grad():
        if _solo(g) and op in (ReduceOp.SUM, ReduceOp.AVG, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PRODUCT):
            return tensor.clone()
        if op in (ReduceOp.SUM, ReduceOp.AVG):
            out = tensor.to_global(_on(g, tensor), _sbp.partial_sum).to_global(sbp=_sbp.broadcast)._part()
            return out / g.size() if op == ReduceOp.AVG else out
        if op in (ReduceOp.MAX, ReduceOp.MIN):
            kind = _sbp.partial_max if op == ReduceOp.MAX else _sbp.partial_min
            return tensor.to_global(_on(g, tensor), kind).to_global(sbp=_sbp.broadcast)._part()
        if op == ReduceOp.PRODUCT:
            return _gathered(tensor, g).prod(dim=0)
        if op in _BITWISE:
            if tensor.is_floating_point() or tensor.is_complex():
                raise RuntimeError(f"{call}: ReduceOp.{op.upper()} takes integer or bool tensors, got {tensor.dtype}")
            parts = _gathered(tensor, g).unbind(0)
            return _functools.reduce(_BITWISE[op], parts[1:], parts[0])
    raise ValueError(f"{call}: unknown reduce op {op!r}; expected one of ReduceOp.SUM, AVG, PRODUCT, MIN, MAX, "
                     f"BAND, BOR, BXOR")


_BITWISE = {ReduceOp.BAND: lambda a, b: a & b, ReduceOp.BOR: lambda a, b: a | b, ReduceOp.BXOR: lambda a, b: a ^ b}


def _gathered(tensor, g):
    """Every member's `tensor` stacked along a new first dim, in group rank order."""
    from .. import no_grad
    with no_grad():
        if _solo(g):
            return tensor.unsqueeze(0).clone()
        stacked = tensor.unsqueeze(0).to_global(_on(g, tensor), _sbp.split(0))
        return stacked.to_global(sbp=_sbp.broadcast)._part()


def _write(dst, value):
    from .. import no_grad
    with no_grad():
        dst.copy_(value)


@_collective
def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):  # noqa: A002
    """Replaces `tensor` on every member with the reduction of all members' tensors."""
    g = _group(group, "all_reduce")
    _write(tensor, _reduced(_local(tensor, "all_reduce"), g, op, "all_reduce"))
    return _done(async_op, tensor)


@_collective
def reduce(tensor, dst, op=ReduceOp.SUM, group=None, async_op=False):  # noqa: A002
    """The reduction lands in `tensor` on rank dst (the others' tensors are left as they are)."""
    g = _group(group, "reduce")
    value = _reduced(_local(tensor, "reduce"), g, op, "reduce")
    if _env.get_rank() == dst:
        _write(tensor, value)
    return _done(async_op, tensor)


def _from(tensor, g, src, sbp, call):
    """Rank src's `tensor` laid out as `sbp` over g (src in world numbering, as torch's)."""
    if src not in g.ranks:
        raise ValueError(f"{call}: src rank {src} is not in the group {g.ranks}")
    from .. import no_grad
    with no_grad():
        if _solo(g):
            return tensor.clone()  # broadcast, or the one part of a split
        return tensor.to_global(_on(g, tensor, [src]), _sbp.broadcast).to_global(_on(g, tensor), sbp)._part()


@_collective
def broadcast(tensor, src, group=None, async_op=False):  # noqa: A002
    """Replaces `tensor` on every member with rank src's."""
    g = _group(group, "broadcast")
    _write(tensor, _from(_local(tensor, "broadcast"), g, src, _sbp.broadcast, "broadcast"))
    return _done(async_op, tensor)


@_collective
def all_gather(tensor_list, tensor, group=None, async_op=False):  # noqa: A002
    """tensor_list[i] becomes member i's `tensor` (every member's has the same shape)."""
    g = _group(group, "all_gather")
    if len(tensor_list) != g.size():
        raise ValueError(f"all_gather: tensor_list has {len(tensor_list)} tensors; expected one per rank "
                         f"of the group ({g.size()})")
    parts = _gathered(_local(tensor, "all_gather"), g)
    for i, dst in enumerate(tensor_list):
        _write(dst, parts[i])
    return _done(async_op, *tensor_list)


@_collective
def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):  # noqa: A002
    """output_tensor becomes the members' input tensors concatenated along dim 0."""
    g = _group(group, "all_gather_into_tensor")
    parts = _gathered(_local(input_tensor, "all_gather_into_tensor"), g)
    _write(output_tensor, parts.reshape(output_tensor.shape))
    return _done(async_op, output_tensor)


@_collective
def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):  # noqa: A002
    """output becomes this member's dim-0 block of the reduction of all members' inputs."""
    g = _group(group, "reduce_scatter_tensor")
    _local(input, "reduce_scatter_tensor")
    if input.shape[0] != output.shape[0] * g.size():
        raise ValueError(f"reduce_scatter_tensor: input's first dim {input.shape[0]} must be the output's "
                         f"({output.shape[0]}) times the group's size ({g.size()})")
    if op in (ReduceOp.SUM, ReduceOp.AVG):
        from .. import no_grad
        with no_grad():
            part = input.clone() if _solo(g) else \
                input.to_global(_on(g, input), _sbp.partial_sum).to_global(sbp=_sbp.split(0))._part()
        _write(output, part / g.size() if op == ReduceOp.AVG else part)
    else:
        whole = _reduced(input, g, op, "reduce_scatter_tensor")
        n = output.shape[0]
        _write(output, whole[g.rank() * n:(g.rank() + 1) * n])
    return _done(async_op, output)


@_collective
def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):  # noqa: A002
    """output becomes the reduction over members of their input_list[this member's rank]."""
    from .. import stack
    g = _group(group, "reduce_scatter")
    if len(input_list) != g.size():
        raise ValueError(f"reduce_scatter: input_list has {len(input_list)} tensors; expected {g.size()}")
    whole = _reduced(stack([_local(t, "reduce_scatter") for t in input_list]), g, op, "reduce_scatter")
    _write(output, whole[g.rank()])
    return _done(async_op, output)


def _split_sizes(sizes, rows, g, which, call):
    if sizes is None or len(sizes) == 0:
        if rows % g.size():
            raise ValueError(f"{call}: dim 0 of the {which} ({rows}) does not divide into the group's {g.size()} ranks; "
                             f"pass {which}_split_sizes")
        return [rows // g.size()] * g.size()
    sizes = [int(n) for n in sizes]
    if len(sizes) != g.size() or sum(sizes) != rows or min(sizes) < 0:
        raise ValueError(f"{call}: {which}_split_sizes {sizes} must hold one size >= 0 per rank of the group "
                         f"({g.size()}) summing to dim 0 of the {which} ({rows})")
    return sizes


@_collective
def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None, group=None,  # noqa: A002
                      async_op=False):
    """Member i's dim-0 block j of `input` becomes member j's dim-0 block i of `output` (blocks
    of equal rows, or of the split sizes given). One all-to-all: every member's blocks padded
    to the longest block any member sends, laid out split along the sender, then converted
    to split along the receiver (boxing S(0) -> S(1))."""
    from .. import no_grad, zeros, cat, tensor as _tensor, int64
    call = "all_to_all_single"
    g = _group(group, call)
    _local(input, call)
    if input.dtype != output.dtype:
        raise TypeError(f"{call}: input is {input.dtype} and output {output.dtype}; expected one dtype")
    rows = input.reshape(input.shape[0], -1)
    width = rows.shape[1]
    sends = _split_sizes(input_split_sizes, input.shape[0], g, "input", call)
    receives = _split_sizes(output_split_sizes, output.shape[0], g, "output", call)
    with no_grad():
        longest = int(_gathered(_tensor([max(sends + receives)], dtype=int64), g).max())
        padded = zeros((g.size(), longest, width), dtype=input.dtype, device=input.device)
        at = 0
        for j, n in enumerate(sends):
            padded[j, :n] = rows[at:at + n]
            at += n
        moved = padded.unsqueeze(0) if _solo(g) else \
            padded.unsqueeze(0).to_global(_on(g, input), _sbp.split(0)).to_global(sbp=_sbp.split(1))._part()
        got = cat([moved[i, 0, :n] for i, n in enumerate(receives)])
        _write(output, got.reshape(output.shape))
    return _done(async_op, output)


@_collective
def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):  # noqa: A002
    """Member i's input_tensor_list[j] becomes member j's output_tensor_list[i] (any shapes,
    one dtype): all_to_all_single of the flattened tensors."""
    from .. import cat, empty
    call = "all_to_all"
    g = _group(group, call)
    if len(input_tensor_list) != g.size() or len(output_tensor_list) != g.size():
        raise ValueError(f"{call}: input and output lists hold {len(input_tensor_list)} and "
                         f"{len(output_tensor_list)} tensors; expected one per rank of the group ({g.size()})")
    flat_in = cat([_local(t, call).reshape(-1) for t in input_tensor_list])
    flat_out = empty(sum(t.numel() for t in output_tensor_list), dtype=output_tensor_list[0].dtype,
                     device=output_tensor_list[0].device)
    all_to_all_single(flat_out, flat_in, [t.numel() for t in output_tensor_list],
                      [t.numel() for t in input_tensor_list], group=group)
    at = 0
    for t in output_tensor_list:
        _write(t, flat_out[at:at + t.numel()].reshape(t.shape))
        at += t.numel()
    return _done(async_op, *output_tensor_list)


@_collective
def gather(tensor, gather_list=None, dst=0, group=None, async_op=False):  # noqa: A002
    """On rank dst, gather_list[i] becomes member i's `tensor`."""
    g = _group(group, "gather")
    parts = _gathered(_local(tensor, "gather"), g)
    if _env.get_rank() == dst:
        if gather_list is None or len(gather_list) != g.size():
            raise ValueError(f"gather: rank {dst} needs a gather_list of {g.size()} tensors")
        for i, out in enumerate(gather_list):
            _write(out, parts[i])
    return _done(async_op, tensor)


@_collective
def scatter(tensor, scatter_list=None, src=0, group=None, async_op=False):  # noqa: A002
    """Member i's `tensor` becomes rank src's scatter_list[i]."""
    from .. import stack, zeros
    g = _group(group, "scatter")
    _local(tensor, "scatter")
    if _env.get_rank() == src:
        if scatter_list is None or len(scatter_list) != g.size():
            raise ValueError(f"scatter: rank {src} needs a scatter_list of {g.size()} tensors")
        whole = stack(list(scatter_list))
    else:
        whole = zeros((g.size(), *tensor.shape), dtype=tensor.dtype, device=tensor.device)
    part = _from(whole, g, src, _sbp.split(0), "scatter")
    _write(tensor, part[0])
    return _done(async_op, tensor)


def _peer(rank, group, call):  # noqa: A002
    """A peer's world rank from torch's arguments (a rank of `group` when group_dst/src given)."""
    if rank is None:
        raise ValueError(f"{call}: a peer rank is needed")
    return _group(group, call).ranks[rank] if group is not None else int(rank)


def _source(src, group, group_src, call):  # noqa: A002
    """irecv's peer: src (a world rank) or group_src (a rank of `group`); neither (torch's
    receive from any source) is the other members of `group` (the world by default): the one
    that sends first (global/point_to_point.h), or the one other member of a group of two."""
    if src is not None or group_src is not None:
        return _peer(src if group_src is None else group_src, group if group_src is not None else None, call)
    others = [r for r in _group(group, call).ranks if r != _env.get_rank()]
    if not others:
        raise ValueError(f"{call}: src=None (any source) in a group of this rank alone; expected another rank")
    return others[0] if len(others) == 1 else others


# isend / irecv calls not issued yet: they go as one batch (global/point_to_point.h) at the
# first wait of one of them, a send / recv (which joins the batch), batch_isend_irecv (which
# adds its list) or the next collective, so that ranks that each isend to the other before
# they receive (a ring) do not wait on each other.
_pending = []
_atexit.register(lambda: _flush_transfers())  # an isend never waited for is still sent, as torch's


def _flush_transfers():
    """Issues the isend / irecv calls made since the last batch, as one batch."""
    if not _pending:
        return
    from .._tensor import Tensor
    batch = list(_pending)
    _pending.clear()
    sends = [work for work in batch if not work._receives]
    receives = [work for work in batch if work._receives]
    peers = [w._peer if isinstance(w._peer, list) else [w._peer] for w in receives]
    out = _C.transfer_batch([w._value._impl for w in sends], [w._peer for w in sends],
                            [(list(w._value.shape), getattr(_C.DType, w._value.dtype.name), p)
                             for w, p in zip(receives, peers)])
    token = Tensor(out[0])
    for work in sends:
        work._issued(token)
    senders = iter(out[1 + len(receives):])  # of the receives from any of several
    for work, received, p in zip(receives, out[1:], peers):
        work._issued(token, Tensor(next(senders)) if len(p) > 1 else None)
        _write(work._value, Tensor(received).to(work._value.device))


def isend(tensor, dst=None, group=None, tag=0, group_dst=None):  # noqa: A002
    """Sends this rank's `tensor` to rank dst, which must receive it: a transfer of the two
    ranks alone. Returns a work object; the value sent is the tensor's at this call."""
    _require_initialized("isend")
    peer = _peer(dst if group_dst is None else group_dst, group if group_dst is not None else None, "isend")
    work = _P2PWork(_local(tensor, "isend").clone(), peer, receives=False)
    _pending.append(work)
    return work


def irecv(tensor, src=None, group=None, tag=0, group_src=None):  # noqa: A002
    """Receives into `tensor` what rank src sends it (the same shape and dtype), once the
    returned work is waited for (or the next send, recv or collective); src=None, from the
    rank of the group that sends first (work.source, torch's _source_rank(), says which)."""
    _require_initialized("irecv")
    peer = _source(src, group, group_src, "irecv")
    work = _P2PWork(_local(tensor, "irecv"), peer, receives=True)
    _pending.append(work)
    return work


def send(tensor, dst=None, group=None, tag=0, group_dst=None):  # noqa: A002
    """isend, waited for (torch's blocking send): it ends the batch of the isend / irecv calls
    before it (the tutorials' ring of `isend` then `recv` on every rank)."""
    isend(tensor, dst, group, tag, group_dst).wait()


def recv(tensor, src=None, group=None, tag=0, group_src=None):  # noqa: A002
    """irecv, waited for, ending the batch as send does; returns the sender's rank (torch's)."""
    work = irecv(tensor, src, group, tag, group_src)
    work.wait()
    return work.source


def send_object_list(object_list, dst=None, group=None, device=None, group_dst=None):  # noqa: A002
    """Sends the pickled objects to rank dst, which must recv_object_list a list of as many
    (torch's two sends: the objects' sizes, then their bytes)."""
    from .. import tensor as _tensor, int64, cat
    pieces = [_object_bytes(obj) for obj in object_list]
    send(_tensor([p.shape[0] for p in pieces], dtype=int64), dst, group, group_dst=group_dst)
    send(cat(pieces), dst, group, group_dst=group_dst)


def recv_object_list(object_list, src=None, group=None, device=None, group_src=None):  # noqa: A002
    """Fills object_list with the objects rank src sent (send_object_list of as many);
    returns src's rank, as torch's."""
    from .. import zeros, int64, uint8
    sizes = zeros(len(object_list), dtype=int64)
    sender = recv(sizes, src, group, group_src=group_src)
    sizes = sizes.tolist()
    data = zeros(sum(sizes), dtype=uint8)
    recv(data, sender)  # the bytes of the same sender (src=None: whichever sent the sizes)
    raw, offset = data._numpy().tobytes(), 0
    for i, n in enumerate(sizes):
        object_list[i] = _pickle.loads(raw[offset:offset + n])
        offset += n
    return sender


class P2POp:
    """One transfer of batch_isend_irecv: op is isend or irecv, peer a world rank (or
    group_peer a rank of group)."""

    def __init__(self, op, tensor, peer=None, group=None, tag=0, group_peer=None):
        if op not in (isend, irecv):
            raise ValueError("P2POp: op must be meshflow.distributed.isend or meshflow.distributed.irecv")
        self.op, self.tensor, self.peer, self.group, self.tag, self.group_peer = op, tensor, peer, group, tag, group_peer


def batch_isend_irecv(p2p_op_list):
    """Issues every transfer of the list (with any isend / irecv not issued yet) as one
    batch; returns their work objects."""
    works = []
    for op in p2p_op_list:
        if op.op is isend:
            works.append(isend(op.tensor, op.peer, op.group, op.tag, op.group_peer))
        else:
            works.append(irecv(op.tensor, op.peer, op.group, op.tag, op.group_peer))
    _flush_transfers()
    return works


class _P2PWork(_Work):
    """isend's and irecv's work: waiting issues its batch (if not yet) and reads the transfer's
    outcome (its error, if any). `peer`: a world rank, or (a receive from any source) the
    ranks that may send."""

    def __init__(self, value, peer, receives):
        super().__init__([value])
        self._value, self._peer, self._receives, self._token, self._sender = value, peer, receives, None, None

    def _issued(self, token, sender=None):
        self._token, self._sender = token, sender

    def wait(self, timeout=None):
        if self._token is None:
            _flush_transfers()
        self._token._numpy()
        return True

    @property
    def source(self):
        """The sender's world rank (a receive's; None for a send), once waited for."""
        if not self._receives:
            return None
        if self._sender is None:
            return self._peer
        self.wait()
        return int(self._sender.item())

    def _source_rank(self):
        return self.source


@_collective
def barrier(group=None, async_op=False, device_ids=None):  # noqa: A002
    """Returns once every rank has called it."""
    from .. import ones
    flag = ones(1)
    all_reduce(flag, group=group)
    flag._numpy()
    return _done(async_op)


def monitored_barrier(group=None, timeout=None, wait_all_ranks=False):  # noqa: A002
    barrier(group)


def _object_bytes(obj):
    from .._tensor import _copy_of
    return _copy_of(_np.frombuffer(_pickle.dumps(obj), dtype=_np.uint8).copy())


def _exchange_objects(objs_bytes, g, src=None):
    """Every member's pickled bytes (or only src's, broadcast), unpickled, in rank order."""
    from .. import tensor as _tensor, zeros, cat
    from .. import int64, uint8
    lengths = _gathered(_tensor([objs_bytes.shape[0]], dtype=int64), g).reshape(-1).tolist()
    longest = max(lengths, default=objs_bytes.shape[0])
    if longest > objs_bytes.shape[0]:
        objs_bytes = cat([objs_bytes, zeros(longest - objs_bytes.shape[0], dtype=uint8)])
    if src is None:
        rows = _gathered(objs_bytes, g)._numpy()
        return [_pickle.loads(rows[i, :n].tobytes()) for i, n in enumerate(lengths)]
    broadcast(objs_bytes, src, group=g)
    return _pickle.loads(objs_bytes._numpy()[:lengths[g.ranks.index(src)]].tobytes())


@_collective
def all_gather_object(object_list, obj, group=None):  # noqa: A002
    """object_list[i] becomes member i's obj (pickled: only for trusted peers, as torch's)."""
    g = _group(group, "all_gather_object")
    if len(object_list) != g.size():
        raise ValueError(f"all_gather_object: object_list has {len(object_list)} entries; expected {g.size()}")
    object_list[:] = _exchange_objects(_object_bytes(obj), g)


@_collective
def broadcast_object_list(object_list, src=0, group=None, device=None):  # noqa: A002
    """Every member's object_list becomes rank src's (pickled, as torch's)."""
    g = _group(group, "broadcast_object_list")
    mine = _object_bytes(list(object_list) if _env.get_rank() == src else None)
    object_list[:] = _exchange_objects(mine, g, src)


@_collective
def gather_object(obj, object_gather_list=None, dst=0, group=None):  # noqa: A002
    g = _group(group, "gather_object")
    gathered = _exchange_objects(_object_bytes(obj), g)
    if _env.get_rank() == dst:
        object_gather_list[:] = gathered


@_collective
def scatter_object_list(scatter_object_output_list, scatter_object_input_list=None, src=0, group=None):  # noqa: A002
    """Member i's scatter_object_output_list[0] becomes rank src's scatter_object_input_list[i]
    (pickled, as torch's)."""
    g = _group(group, "scatter_object_list")
    if _env.get_rank() == src and (scatter_object_input_list is None or len(scatter_object_input_list) != g.size()):
        raise ValueError(f"scatter_object_list: rank {src} needs a scatter_object_input_list of {g.size()} objects")
    if len(scatter_object_output_list) < 1:
        raise ValueError("scatter_object_list: scatter_object_output_list must hold at least one entry")
    mine = _object_bytes(list(scatter_object_input_list) if _env.get_rank() == src else None)
    scatter_object_output_list[0] = _exchange_objects(mine, g, src)[g.rank()]


from . import algorithms  # noqa: E402,F401  (torch.distributed.algorithms; its hooks call the collectives above)


def __getattr__(name):
    """torch.distributed.device_mesh, .tensor, .fsdp and .checkpoint, imported on first use (they need
    meshflow.nn)."""
    if name in ("device_mesh", "tensor", "fsdp", "checkpoint"):
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
