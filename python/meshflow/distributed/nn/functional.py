"""torch.distributed.nn.functional: collectives of local tensors that autograd goes through, as
contrastive losses over every rank's batch use them (CLIP's all_gather of the embeddings).
Each is the collective of meshflow.distributed forward and its adjoint backward, over the
same group: the gradient of all_gather is the reduce_scatter (SUM) of the outputs'
gradients, that of a SUM all_reduce the all_reduce of its output's gradient."""
from ... import autograd
from .. import ReduceOp, all_gather as _all_gather, all_reduce as _all_reduce, reduce_scatter as _reduce_scatter


class _AllGather(autograd.Function):
    @staticmethod
    def forward(ctx, group, tensor):
        from ... import empty_like
        ctx.group = group
        out = [empty_like(tensor) for _ in range(_size(group))]
        _all_gather(out, tensor.contiguous(), group=group)
        return tuple(out)

    @staticmethod
    def backward(ctx, *grads):
        from ... import empty_like
        grad = empty_like(grads[0])
        _reduce_scatter(grad, [g.contiguous() for g in grads], op=ReduceOp.SUM, group=ctx.group)
        return None, grad


class _AllReduce(autograd.Function):
    @staticmethod
    def forward(ctx, group, tensor):
        ctx.group = group
        out = tensor.clone()
        _all_reduce(out, op=ReduceOp.SUM, group=group)
        return out

    @staticmethod
    def backward(ctx, grad):
        out = grad.clone()
        _all_reduce(out, op=ReduceOp.SUM, group=ctx.group)
        return None, out


def _size(group):
    from .. import get_world_size
    return get_world_size(group)


def all_gather(tensor, group=None):  # noqa: A002 (torch's name)
    """A tuple of every member's `tensor`; their gradients sum back to each member's."""
    return _AllGather.apply(group, tensor)


def all_reduce(tensor, op=ReduceOp.SUM, group=None):  # noqa: A002
    """The sum of every member's `tensor` (a new tensor); its gradient is summed the same way."""
    if op != ReduceOp.SUM:
        raise ValueError(f"distributed.nn.functional.all_reduce: op {op}; expected ReduceOp.SUM (the one with a "
                         "gradient here)")
    return _AllReduce.apply(group, tensor)
