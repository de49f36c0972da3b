"""torch.distributed's spelling over meshflow's global tensors, for programs written for DDP.

A meshflow job is already one process per rank, started by meshflow's launcher over mpirun,
so `init_process_group` starts nothing: it checks that what the program asks for is the job
it runs in. Each collective here takes this rank's local tensor, makes it this rank's part of
a global tensor and lets boxing do the communication (`all_reduce` is P -> B, `all_gather`
S(0) -> B, `reduce_scatter_tensor` P -> S(0), `broadcast` B on one rank -> B on all), writing
the result into the tensor in place as torch's collectives do. So they are ordered like any
other op by the VM, and a rank that skips a call is reported by the same layout agreement
that reports any global op called by some ranks only.

Every rank of the job makes each call, in the same order, also a call with a group it is not
in (there it changes nothing): global tensors are SPMD, one program on every rank, where torch
lets a group's non-members skip the call. A rank that skips one is told so at once, on every
rank, naming the call. Calls are made by the thread that issues ops, like every other op.
send / recv (and isend / irecv) are the exception: the two ranks alone make them, as torch's
(global/point_to_point.h).
"""
import os as _os
import pickle as _pickle

import numpy as _np

from .. import _C
from .. import env as _env
from .. import _placement as _placements
from .._placement import placement as _placement
from .. import sbp as _sbp


class ReduceOp:
    """The reductions of all_reduce, reduce and reduce_scatter_tensor (torch's names)."""
    SUM = "sum"
    AVG = "avg"
    PRODUCT = "product"
    MIN = "min"
    MAX = "max"


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
    if group is None:
        _state.update(initialized=False, implicit=False, backend=None)
        _placements.made = False


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
    return _group(group, "get_world_size").size()


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False):
    """A group of `ranks` (all of them when None). Every rank of the job calls it, as torch's."""
    _require_initialized("new_group")
    size = _env.get_world_size()
    ranks = sorted(set(range(size) if ranks is None else (int(r) for r in ranks)))
    if not ranks or ranks[0] < 0 or ranks[-1] >= size:
        raise ValueError(f"new_group(ranks={ranks}): ranks must be in [0, {size - 1}] and not empty")
    return ProcessGroup(ranks)


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


def _done(async_op, *tensors):
    return _Work(list(tensors)) if async_op else None


def _members(group, call):  # noqa: A002
    """The group of `call`, and whether this rank is in it (if not it joins the collective but
    its tensors are left as they are). The ranks first agree that they make the same call:
    one made under `if rank == 0:` while the others wait in another (a barrier) raises on
    every rank at once, naming each rank's call, instead of in the conversions inside."""
    g = _group(group, call)
    _agree_on_call(f"meshflow.distributed.{call}")
    return g, (g.rank() >= 0)


def _agree_on_call(name):
    """Every rank of the job is in a call of this name, or all raise, naming each rank's."""
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
        if op in (ReduceOp.SUM, ReduceOp.AVG):
            out = tensor.to_global(_on(g, tensor), _sbp.partial_sum).to_global(sbp=_sbp.broadcast).to_local()
            return out / g.size() if op == ReduceOp.AVG else out
        if op in (ReduceOp.MAX, ReduceOp.MIN):
            kind = _sbp.partial_max if op == ReduceOp.MAX else _sbp.partial_min
            return tensor.to_global(_on(g, tensor), kind).to_global(sbp=_sbp.broadcast).to_local()
        if op == ReduceOp.PRODUCT:
            return _gathered(tensor, g).prod(dim=0)
    raise ValueError(f"{call}: unknown reduce op {op!r}; expected one of ReduceOp.SUM, AVG, PRODUCT, MIN, MAX")


def _gathered(tensor, g):
    """Every member's `tensor` stacked along a new first dim, in group rank order."""
    from .. import no_grad
    with no_grad():
        stacked = tensor.unsqueeze(0).to_global(_on(g, tensor), _sbp.split(0))
        return stacked.to_global(sbp=_sbp.broadcast).to_local()


def _write(dst, value, member=True):
    if member:
        from .. import no_grad
        with no_grad():
            dst.copy_(value)


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):  # noqa: A002
    """Replaces `tensor` on every member with the reduction of all members' tensors."""
    g, member = _members(group, "all_reduce")
    _write(tensor, _reduced(_local(tensor, "all_reduce"), g, op, "all_reduce"), member)
    return _done(async_op, tensor)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, async_op=False):  # noqa: A002
    """The reduction lands in `tensor` on rank dst (the others' tensors are left as they are)."""
    g, _ = _members(group, "reduce")
    _write(tensor, _reduced(_local(tensor, "reduce"), g, op, "reduce"), _env.get_rank() == dst)
    return _done(async_op, tensor)


def _from(tensor, g, src, sbp, call):
    """Rank src's `tensor` laid out as `sbp` over g (src in world numbering, as torch's)."""
    if src not in g.ranks:
        raise ValueError(f"{call}: src rank {src} is not in the group {g.ranks}")
    from .. import no_grad
    with no_grad():
        return tensor.to_global(_on(g, tensor, [src]), _sbp.broadcast).to_global(_on(g, tensor), sbp).to_local()


def broadcast(tensor, src, group=None, async_op=False):  # noqa: A002
    """Replaces `tensor` on every member with rank src's."""
    g, member = _members(group, "broadcast")
    _write(tensor, _from(_local(tensor, "broadcast"), g, src, _sbp.broadcast, "broadcast"), member)
    return _done(async_op, tensor)


def all_gather(tensor_list, tensor, group=None, async_op=False):  # noqa: A002
    """tensor_list[i] becomes member i's `tensor` (every member's has the same shape)."""
    g, member = _members(group, "all_gather")
    if member and len(tensor_list) != g.size():
        raise ValueError(f"all_gather: tensor_list has {len(tensor_list)} tensors; expected one per rank "
                         f"of the group ({g.size()})")
    parts = _gathered(_local(tensor, "all_gather"), g)
    for i, dst in enumerate(tensor_list if member else []):
        _write(dst, parts[i])
    return _done(async_op, *tensor_list)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):  # noqa: A002
    """output_tensor becomes the members' input tensors concatenated along dim 0."""
    g, member = _members(group, "all_gather_into_tensor")
    parts = _gathered(_local(input_tensor, "all_gather_into_tensor"), g)
    _write(output_tensor, parts.reshape(output_tensor.shape) if member else None, member)
    return _done(async_op, output_tensor)


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):  # noqa: A002
    """output becomes this member's dim-0 block of the reduction of all members' inputs."""
    g, member = _members(group, "reduce_scatter_tensor")
    _local(input, "reduce_scatter_tensor")
    if member and input.shape[0] != output.shape[0] * g.size():
        raise ValueError(f"reduce_scatter_tensor: input's first dim {input.shape[0]} must be the output's "
                         f"({output.shape[0]}) times the group's size ({g.size()})")
    if op in (ReduceOp.SUM, ReduceOp.AVG):
        from .. import no_grad
        with no_grad():
            part = input.to_global(_on(g, input), _sbp.partial_sum).to_global(sbp=_sbp.split(0)).to_local()
        _write(output, part / g.size() if op == ReduceOp.AVG else part, member)
    else:
        whole = _reduced(input, g, op, "reduce_scatter_tensor")
        n = output.shape[0]
        _write(output, whole[g.rank() * n:(g.rank() + 1) * n] if member else None, member)
    return _done(async_op, output)


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):  # noqa: A002
    """output becomes the reduction over members of their input_list[this member's rank]."""
    from .. import stack
    g, member = _members(group, "reduce_scatter")
    if len(input_list) != g.size():
        raise ValueError(f"reduce_scatter: input_list has {len(input_list)} tensors; expected {g.size()}")
    whole = _reduced(stack([_local(t, "reduce_scatter") for t in input_list]), g, op, "reduce_scatter")
    _write(output, whole[g.rank()] if member else None, member)
    return _done(async_op, output)


def gather(tensor, gather_list=None, dst=0, group=None, async_op=False):  # noqa: A002
    """On rank dst, gather_list[i] becomes member i's `tensor`."""
    g, _ = _members(group, "gather")
    parts = _gathered(_local(tensor, "gather"), g)
    if _env.get_rank() == dst:
        if gather_list is None or len(gather_list) != g.size():
            raise ValueError(f"gather: rank {dst} needs a gather_list of {g.size()} tensors")
        for i, out in enumerate(gather_list):
            _write(out, parts[i])
    return _done(async_op, tensor)


def scatter(tensor, scatter_list=None, src=0, group=None, async_op=False):  # noqa: A002
    """Member i's `tensor` becomes rank src's scatter_list[i]."""
    from .. import stack, zeros
    g, member = _members(group, "scatter")
    _local(tensor, "scatter")
    if _env.get_rank() == src:
        if scatter_list is None or len(scatter_list) != g.size():
            raise ValueError(f"scatter: rank {src} needs a scatter_list of {g.size()} tensors")
        whole = stack(list(scatter_list))
    else:
        whole = zeros((g.size(), *tensor.shape), dtype=tensor.dtype, device=tensor.device)
    part = _from(whole, g, src, _sbp.split(0), "scatter")
    _write(tensor, part[0] if member else None, member)
    return _done(async_op, tensor)


def _peer(rank, group, call):  # noqa: A002
    """A peer's world rank from torch's arguments (a rank of `group` when group_dst/src given)."""
    if rank is None:
        raise ValueError(f"{call}: a peer rank is needed (recv from any source is not supported: name src)")
    return _group(group, call).ranks[rank] if group is not None else int(rank)


def isend(tensor, dst=None, group=None, tag=0, group_dst=None):  # noqa: A002
    """Sends this rank's `tensor` to rank dst, which must recv it: a call of the two ranks
    alone (global/point_to_point.h). Returns a work object; the value sent is the tensor's
    at this call."""
    from .._tensor import Tensor
    _require_initialized("isend")
    token = Tensor(_C.send(_local(tensor, "isend")._impl, _peer(dst if group_dst is None else group_dst,
                                                                  group if group_dst is not None else None, "isend")))
    return _P2PWork(token)


def irecv(tensor, src=None, group=None, tag=0, group_src=None):  # noqa: A002
    """Receives into `tensor` what rank src sends it (the same shape and dtype). Returns a
    work object."""
    from .._tensor import Tensor
    _require_initialized("irecv")
    _local(tensor, "irecv")
    peer = _peer(src if group_src is None else group_src, group if group_src is not None else None, "irecv")
    received = Tensor(_C.recv(list(tensor.shape), getattr(_C.DType, tensor.dtype.name), peer))
    _write(tensor, received.to(tensor.device))
    return _P2PWork(received, peer)


def send(tensor, dst=None, group=None, tag=0, group_dst=None):  # noqa: A002
    """isend, waited for (torch's blocking send)."""
    isend(tensor, dst, group, tag, group_dst).wait()


def recv(tensor, src=None, group=None, tag=0, group_src=None):  # noqa: A002
    """irecv, waited for; returns the sender's rank (torch's)."""
    work = irecv(tensor, src, group, tag, group_src)
    work.wait()
    return work.source


class _P2PWork(_Work):
    """isend's and irecv's work: waiting reads the transfer's outcome (its error, if any)."""

    def __init__(self, token, source=None):
        super().__init__([token])
        self._token, self.source = token, source

    def wait(self, timeout=None):
        self._token._numpy()
        return True


def barrier(group=None, async_op=False, device_ids=None):  # noqa: A002
    """Returns once every rank has called it."""
    from .. import ones
    _members(group, "barrier")
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
    """Every member's pickled bytes (or only src's, broadcast), unpickled, in rank order; on a
    rank outside g, which joins the collectives with its own bytes, None."""
    from .. import tensor as _tensor, zeros, cat
    from .. import int64, uint8
    lengths = _gathered(_tensor([objs_bytes.shape[0]], dtype=int64), g).reshape(-1).tolist()
    longest = max(lengths, default=objs_bytes.shape[0])
    if longest > objs_bytes.shape[0]:
        objs_bytes = cat([objs_bytes, zeros(longest - objs_bytes.shape[0], dtype=uint8)])
    if src is None:
        rows = _gathered(objs_bytes, g)._numpy()
        return [_pickle.loads(rows[i, :n].tobytes()) for i, n in enumerate(lengths)] if lengths else None
    broadcast(objs_bytes, src, group=g)
    return _pickle.loads(objs_bytes._numpy()[:lengths[g.ranks.index(src)]].tobytes()) if lengths else None


def all_gather_object(object_list, obj, group=None):  # noqa: A002
    """object_list[i] becomes member i's obj (pickled: only for trusted peers, as torch's)."""
    g, member = _members(group, "all_gather_object")
    if member and len(object_list) != g.size():
        raise ValueError(f"all_gather_object: object_list has {len(object_list)} entries; expected {g.size()}")
    gathered = _exchange_objects(_object_bytes(obj), g)
    if member:
        object_list[:] = gathered


def broadcast_object_list(object_list, src=0, group=None, device=None):  # noqa: A002
    """Every member's object_list becomes rank src's (pickled, as torch's)."""
    g, member = _members(group, "broadcast_object_list")
    mine = _object_bytes(list(object_list) if _env.get_rank() == src else None)
    value = _exchange_objects(mine, g, src)
    if member:
        object_list[:] = value


def gather_object(obj, object_gather_list=None, dst=0, group=None):  # noqa: A002
    g, _ = _members(group, "gather_object")
    gathered = _exchange_objects(_object_bytes(obj), g)
    if _env.get_rank() == dst:
        object_gather_list[:] = gathered


def scatter_object_list(scatter_object_output_list, scatter_object_input_list=None, src=0, group=None):  # noqa: A002
    """Member i's scatter_object_output_list[0] becomes rank src's scatter_object_input_list[i]
    (pickled, as torch's)."""
    g, member = _members(group, "scatter_object_list")
    if _env.get_rank() == src and (scatter_object_input_list is None or len(scatter_object_input_list) != g.size()):
        raise ValueError(f"scatter_object_list: rank {src} needs a scatter_object_input_list of {g.size()} objects")
    if member and len(scatter_object_output_list) < 1:
        raise ValueError("scatter_object_list: scatter_object_output_list must hold at least one entry")
    mine = _object_bytes(list(scatter_object_input_list) if _env.get_rank() == src else None)
    every = _exchange_objects(mine, g, src)
    if member:
        scatter_object_output_list[0] = every[g.rank()]
