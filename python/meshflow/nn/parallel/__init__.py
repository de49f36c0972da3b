"""torch.nn.parallel's wrappers, for programs written for them.

DistributedDataParallel keeps torch's contract: every rank holds the whole model as local
tensors, runs its own batch, and after backward each gradient is the mean over the ranks of
theirs, so the ranks' optimizer steps stay equal. The mean is one all-reduce of the
gradients flattened per dtype (meshflow.distributed's, i.e. boxing from P to B), made when
the backward that follows a forward returns. A program written with global tensors needs
none of this (the data-parallel gradient sum is boxing there); this is for the port.

DataParallel is torch's single-process wrapper: meshflow runs one device per process, so it
runs the module as it is (torch's does the same without several GPUs).
"""
import contextlib
import weakref as _weakref

from ..modules import Module
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
        state = list(module.parameters()) + list(module.buffers())
        # A model of global tensors is data-parallel by its SBP already: its ranks hold one
        # logical value, and boxing sums its gradients over a split batch. So the wrapper
        # runs it as it is (no copies, no averages), as the program meant.
        self._global = any(t.is_global for t in state)
        if self._global:
            return
        self._broadcast_from_rank0(state)
        # As torch's reducer, the average is set off by a gradient reaching a parameter (the
        # end of that backward), not by whichever backward comes next: a forward whose loss
        # never went backward (an error, an evaluation under grad) leaves other models'
        # backward passes alone.
        held = _weakref.ref(self)
        for p in module.parameters():
            if p.requires_grad:
                p.register_hook(lambda grad: _arrived(held))

    def _broadcast_from_rank0(self, tensors):
        tensors = [t for t in tensors if t.numel() > 0]
        src = self.process_group.ranks[0]
        for group in _flat_groups(tensors):
            like = [tensors[i] for i in group]
            flat = _flat([t.detach() for t in like])
            _dist.broadcast(flat, src, group=self.process_group)
            from ... import no_grad
            with no_grad():
                for t, value in zip(like, _unflat(flat, like)):
                    t.copy_(value)

    def forward(self, *inputs, **kwargs):
        if self._global:
            return self.module(*inputs, **kwargs)
        from ... import is_grad_enabled
        syncing = is_grad_enabled() and self.require_backward_grad_sync
        if self.require_forward_param_sync and self.broadcast_buffers and any(True for _ in self.module.buffers()):
            _dist._agree_on_call(_BUFFER_COPY)
            self._broadcast_from_rank0(list(self.module.buffers()))
        self.require_forward_param_sync = syncing
        self._reduce_armed = self._reduce_armed or syncing
        return self.module(*inputs, **kwargs)

    def _queue_average(self):
        if self._reduce_armed and not self._reduce_queued:
            self._reduce_armed, self._reduce_queued = False, True
            _autograd._after_next_backward(self._average_gradients)

    def _average_gradients(self):
        from ... import no_grad, zeros_like, tensor, float32
        self._reduce_queued = False
        params = [p for p in self.module.parameters() if p.requires_grad]
        if not params:
            return
        size = self.process_group.size()
        used = tensor([0.0 if p.grad is None else 1.0 for p in params], dtype=float32)
        _dist.all_reduce(used, group=self.process_group)
        used = used.tolist()
        with no_grad():
            grads = [p.grad if p.grad is not None else zeros_like(p) for p in params]
            for group in _flat_groups(grads):
                like = [grads[i] for i in group]
                flat = _flat(like) / size
                _dist.all_reduce(flat, group=self.process_group)
                for i, value in zip(group, _unflat(flat, like)):
                    if used[i] > 0:
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

    @contextlib.contextmanager
    def join(self, divide_by_initial_world_size=True, enable=True, throw_on_early_termination=False):
        """Uneven inputs are not shadowed: every rank must run the same number of steps."""
        yield

    def register_comm_hook(self, state, hook):
        raise NotImplementedError("DistributedDataParallel.register_comm_hook: meshflow averages the gradients "
                                  "itself (one all-reduce per dtype); communication hooks are not supported")

    def _set_static_graph(self):
        self.static_graph = True
