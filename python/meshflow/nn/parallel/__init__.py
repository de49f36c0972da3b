"""torch.nn.parallel's wrappers, for programs written for them.

DistributedDataParallel keeps torch's contract: every rank holds the whole model as local
tensors, runs its own batch, and after backward each gradient is the mean over the ranks of
theirs, so the ranks' optimizer steps stay equal. The mean is one all-reduce of the
gradients flattened per dtype (meshflow.distributed's, i.e. boxing from P to B), made when
the backward that follows a forward returns (or what a registered communication hook makes of
that flattened bucket). join() shadows the steps of ranks that still have inputs on those
that have none, as torch's Join. A program written with global tensors needs none of this
(the data-parallel gradient sum is boxing there); this is for the port.

DataParallel is torch's single-process wrapper: meshflow runs one device per process, so it
runs the module as it is (torch's does the same without several GPUs).
"""
import contextlib
import weakref as _weakref

from ..modules import Module
from ..._tensor import Tensor
from ... import autograd as _autograd
from ... import distributed as _dist


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids, self.output_device, self.dim = device_ids, output_device, dim

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


def _flat_groups(tensors):
    """Indices of `tensors` grouped by (dtype, device), in order: one collective per group."""
    groups = {}
    for i, t in enumerate(tensors):
        groups.setdefault((t.dtype, str(t.device)), []).append(i)
    return list(groups.values())


def _flat(tensors):
    from ... import cat
    return cat([t.reshape(-1) for t in tensors]) if len(tensors) > 1 else tensors[0].reshape(-1)


def _unflat(flat, like):
    out, at = [], 0
    for t in like:
        n = t.numel()
        out.append(flat[at:at + n].reshape(t.shape))
        at += n
    return out


def _broadcast(tensors, src, group):
    """Every rank's `tensors` (local, in place) become world rank src's: one broadcast per
    dtype of them flattened."""
    from ... import no_grad
    tensors = [t for t in tensors if t.numel() > 0]
    for indices in _flat_groups(tensors):
        like = [tensors[i] for i in indices]
        flat = _flat([t.detach() for t in like])
        _dist.broadcast(flat, src, group=group)
        with no_grad():
            for t, value in zip(like, _unflat(flat, like)):
                t.copy_(value)


# What a rank is in when it runs a forward that copies rank 0's buffers (a collective),
# named to the ranks when only some make it.
_BUFFER_COPY = ("DistributedDataParallel's forward, which copies rank 0's buffers to every rank (evaluate "
               "model.module under `if rank == 0:`, or pass broadcast_buffers=False)")


def _arrived(held):
    """A gradient reached a parameter of the DistributedDataParallel `held` (a weak
    reference, so that the parameters' hooks do not keep the wrapper alive)."""
    ddp = held()
    if ddp is not None:
        ddp._queue_average()


class GradBucket:
    """What a communication hook reduces (torch.distributed.GradBucket): the gradients of
    `parameters()` flattened into `buffer()`, `gradients()` their views of it."""

    def __init__(self, index, buffer, parameters, is_last):
        self._index, self._buffer, self._parameters, self._is_last = index, buffer, parameters, is_last

    def index(self):
        return self._index

    def buffer(self):
        return self._buffer

    def set_buffer(self, buffer):
        self._buffer = buffer

    def gradients(self):
        return _unflat(self._buffer, self._parameters)

    def parameters(self):
        return list(self._parameters)

    def is_last(self):
        return self._is_last


class DistributedDataParallel(Module):
    """`module` trained data-parallel over `process_group` (default: every rank), as torch's.

    At construction rank 0's parameters and buffers are copied to every rank; with
    broadcast_buffers, a forward copies rank 0's buffers again when the forward before it ran
    under grad outside no_sync (or is the first), as torch's (so the first evaluation after
    training still takes rank 0's running statistics, and every rank must make it). A forward
    under grad outside no_sync makes the next backward that reaches the module's parameters
    average the gradients (a backward of other tensors leaves them alone, as torch's). Parameters no
    rank used keep grad None. A module of global tensors runs as it is: its SBP makes it
    data-parallel already."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True,
                 process_group=None, bucket_cap_mb=None, find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False, **kwargs):
        super().__init__()
        if not _dist.is_initialized():
            raise RuntimeError("DistributedDataParallel: default process group has not been initialized, please "
                               "make sure to call init_process_group")
        self.module = module
        self.device_ids, self.output_device, self.dim = device_ids, output_device, dim
        self.broadcast_buffers = broadcast_buffers
        self.process_group = process_group if process_group is not None else _dist._state["world"]
        self.find_unused_parameters, self.static_graph = find_unused_parameters, static_graph
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True  # torch's name: whether the next forward copies the buffers
        self._reduce_armed = self._reduce_queued = False
        self._comm_hook = None
        self._join = None  # join()'s state while inside it
        state = list(module.parameters()) + list(module.buffers())
        # A model of global tensors is data-parallel by its SBP already: its ranks hold one
        # logical value, and boxing sums its gradients over a split batch. So the wrapper
        # runs it as it is (no copies, no averages), as the program meant.
        self._global = any(t.is_global for t in state)
        if self._global:
            return
        self._broadcast_from(state, self.process_group.ranks[0])
        # As torch's reducer, the average is set off by a gradient reaching a parameter (the
        # end of that backward), not by whichever backward comes next: a forward whose loss
        # never went backward (an error, an evaluation under grad) leaves other models'
        # backward passes alone.
        held = _weakref.ref(self)
        for p in module.parameters():
            if p.requires_grad:
                p.register_hook(lambda grad: _arrived(held))

    def _broadcast_from(self, tensors, src):
        _broadcast(tensors, src, self.process_group)

    def forward(self, *inputs, **kwargs):
        if self._global:
            return self.module(*inputs, **kwargs)
        from ... import is_grad_enabled
        syncing = is_grad_enabled() and self.require_backward_grad_sync
        copying = self.require_forward_param_sync and self.broadcast_buffers and any(True for _ in self.module.buffers())
        if self._join is not None:
            self._tell_joined(syncing, copying)
        if copying:
            self._copy_buffers()
        self.require_forward_param_sync = syncing
        self._reduce_armed = self._reduce_armed or syncing
        return self.module(*inputs, **kwargs)

    def _copy_buffers(self):
        with _dist._scope(self.process_group):
            _dist._agree_on_call(_BUFFER_COPY)
        self._broadcast_from(list(self.module.buffers()), self.process_group.ranks[0])

    def _tell_joined(self, syncing, copying):
        """Inside join(): the ranks still stepping, those whose step averages gradients and
        those whose forward copies the buffers (an all-reduce the joined ranks shadow)."""
        from ... import tensor, float32
        counts = tensor([1.0, float(syncing), float(copying)], dtype=float32)
        _dist.all_reduce(counts, group=self.process_group)
        self._join["active"] = int(counts[0].item())

    def _queue_average(self):
        if self._reduce_armed and not self._reduce_queued:
            self._reduce_armed, self._reduce_queued = False, True
            _autograd._after_next_backward(self._average_gradients)

    def _average_gradients(self, shadow=False):
        """The average over the group of each gradient; shadow: this rank's are zeros and it
        keeps none (a joined rank's part of the others' average)."""
        from ... import no_grad, zeros_like, tensor, float32
        self._reduce_queued = False
        params = [p for p in self.module.parameters() if p.requires_grad]
        if not params:
            return
        size = self.process_group.size()
        if self._join is not None and not self._join["by_initial_size"]:
            size = self._join["active"]
        used = tensor([0.0 if shadow or p.grad is None else 1.0 for p in params], dtype=float32)
        _dist.all_reduce(used, group=self.process_group)
        used = used.tolist()
        with no_grad():
            grads = [zeros_like(p) if shadow or p.grad is None else p.grad for p in params]
            groups = _flat_groups(grads)
            for index, group in enumerate(groups):
                like = [grads[i] for i in group]
                if self._comm_hook is None:
                    flat = _flat(like) / size
                    _dist.all_reduce(flat, group=self.process_group)
                else:
                    bucket = GradBucket(index, _flat(like).clone(), [params[i] for i in group], index == len(groups) - 1)
                    flat = self._comm_hook[1](self._comm_hook[0], bucket).wait()
                    if not isinstance(flat, Tensor) or flat.shape != bucket.buffer().shape:
                        raise ValueError(f"DistributedDataParallel: the communication hook's future holds "
                                         f"{type(flat).__name__} {getattr(flat, 'shape', '')}; expected a tensor of "
                                         f"the bucket buffer's shape {tuple(bucket.buffer().shape)}")
                for i, value in zip(group, _unflat(flat, like)):
                    if used[i] > 0 and not shadow:
                        params[i].grad = value

    @contextlib.contextmanager
    def no_sync(self):
        """Backward inside accumulates each rank's own gradients; the first synced backward
        after averages the accumulated ones (torch's gradient accumulation idiom)."""
        before = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = before

    def join(self, divide_by_initial_world_size=True, enable=True, throw_on_early_termination=False):
        """Training on uneven inputs, as torch's Join: inside, each forward tells the other
        ranks this one still steps; a rank whose loop has ended shadows the others' steps
        (their buffer copies and gradient averages, with zero gradients) until every rank's
        has, then every rank takes the model of the last to finish. Gradients are divided by
        the group's size (divide_by_initial_world_size) or by the ranks still stepping."""
        return self._joined((), divide_by_initial_world_size, enable, throw_on_early_termination)

    @contextlib.contextmanager
    def _joined(self, optimizer_steps, divide_by_initial_world_size, enable, throw_on_early_termination):
        """join(), where a joined rank also shadows each of the others' steps with
        `optimizer_steps` (ZeroRedundancyOptimizer.step: its broadcasts, after the gradients'
        average; torch's join hooks, in that order)."""
        if not enable or self._global:
            yield
            return
        if throw_on_early_termination:
            raise NotImplementedError("DistributedDataParallel.join(throw_on_early_termination=True) is not supported: "
                                      "the ranks that still have inputs go on, shadowed")
        self._join = {"by_initial_size": divide_by_initial_world_size, "active": self.process_group.size(),
                      "optimizer_steps": tuple(optimizer_steps)}
        try:
            yield
            self._shadow_until_every_rank_joined()
        finally:
            self._join = None

    def _shadow_until_every_rank_joined(self):
        from ... import tensor, float32
        last = True
        while True:
            counts = tensor([0.0, 0.0, 0.0], dtype=float32)
            _dist.all_reduce(counts, group=self.process_group)
            active, syncing, copying = (int(c) for c in counts.tolist())
            if active == 0:
                break
            last = False
            if copying:
                self._copy_buffers()
            if syncing:
                self._average_gradients(shadow=True)
            for step in self._join["optimizer_steps"]:
                step()  # this rank's shard, stepped with the gradients it holds (torch's ZeRO join hook)
        mine = tensor([float(self.process_group.rank() if last else -1)], dtype=float32)
        _dist.all_reduce(mine, op=_dist.ReduceOp.MAX, group=self.process_group)
        self._broadcast_from(list(self.module.parameters()) + list(self.module.buffers()),
                             self.process_group.ranks[int(mine.item())])

    def register_comm_hook(self, state, hook):
        """hook(state, bucket) reduces each bucket of gradients in place of the average and
        returns a future of the bucket's new gradients (torch's contract; the hooks of
        distributed.algorithms.ddp_comm_hooks.default_hooks or your own). A bucket here is
        every gradient of one dtype, the unit of DDP's own all-reduce."""
        if self._comm_hook is not None:
            raise RuntimeError("DistributedDataParallel.register_comm_hook: a communication hook is registered "
                               "already; it can be registered only once")
        if not callable(hook):
            raise TypeError(f"DistributedDataParallel.register_comm_hook: hook must be callable, got {type(hook).__name__}")
        self._comm_hook = (state, hook)

    def _set_static_graph(self):
        self.static_graph = True
