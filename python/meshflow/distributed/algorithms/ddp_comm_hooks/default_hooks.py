"""torch's default DDP communication hooks: each takes (process_group or None, bucket) and
returns a future of the bucket's averaged gradients, as torch's."""
from ... import all_reduce as _all_reduce, _state

__all__ = ["allreduce_hook", "fp16_compress_hook", "bf16_compress_hook"]


def _allreduce_fut(process_group, tensor):
    group = process_group if process_group is not None else _state["world"]
    tensor.div_(group.size())
    return _all_reduce(tensor, group=group, async_op=True).get_future().then(lambda fut: fut.value()[0])


def allreduce_hook(process_group, bucket):
    """The mean over the group of the bucket's gradients (DDP's own reduction)."""
    return _allreduce_fut(process_group, bucket.buffer())


def _compress_hook(dtype, process_group, bucket):
    buffer = bucket.buffer()
    compressed = buffer.to(dtype)

    def decompress(fut):
        buffer.copy_(fut.value())
        return buffer
    return _allreduce_fut(process_group, compressed).then(decompress)


def fp16_compress_hook(process_group, bucket):
    """allreduce_hook on the gradients rounded to float16 (the result is the bucket's dtype again)."""
    from .... import float16
    return _compress_hook(float16, process_group, bucket)


def bf16_compress_hook(process_group, bucket):
    """allreduce_hook on the gradients rounded to bfloat16."""
    from .... import bfloat16
    return _compress_hook(bfloat16, process_group, bucket)
