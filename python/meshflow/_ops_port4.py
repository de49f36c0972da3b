"""torch's names that the fourth round of ported programs met (issue 37), each torch's meaning
composed from existing ops: `range` (the end included, deprecated in torch and still in older
scripts), `set_default_tensor_type` (its float types as the default dtype), `angle` of real
tensors, the interop-thread and denormal settings (meshflow's CPU kernels run one pool, and
the setting changes nothing here), torch's functional spellings of the in-place methods
(`torch.sigmoid_(x)` is `x.sigmoid_()`), and `segment_reduce` (graph code's reduction over
consecutive segments, as scatter_reduce over segment ids). Stateless: thread-safe as the ops
are."""
import math

from . import _dtype
from ._tensor import Tensor
from ._inplace import _gathered_back, _viewing

__all__ = ["range", "set_default_tensor_type", "angle", "get_num_interop_threads", "set_num_interop_threads",
           "set_flush_denormal", "as_strided", "segment_reduce"]

_INPLACE = ("abs_", "acos_", "acosh_", "asin_", "asinh_", "atan_", "atanh_", "arccos_", "arccosh_", "arcsin_",
            "arcsinh_", "arctan_", "arctanh_", "ceil_", "clamp_", "clamp_max_", "clamp_min_", "clip_", "cos_", "cosh_",
            "deg2rad_", "rad2deg_", "erf_", "erfc_", "exp_", "exp2_", "expm1_", "fix_", "floor_", "frac_", "log_",
            "log10_", "log1p_", "log2_", "logit_", "nan_to_num_", "neg_", "negative_", "reciprocal_", "round_",
            "rsqrt_", "sigmoid_", "sin_", "sinc_", "sinh_", "sqrt_", "square_", "tan_", "tanh_", "trunc_", "zero_",
            "fill_", "index_put_", "xlogy_", "celu_", "selu_", "rrelu_", "threshold_", "dropout_", "detach_")


def range(start=0, end=None, step=1, *, dtype=None, device=None, requires_grad=False):  # noqa: A001 (torch.range)
    """start, start + step, ... up to and including end (torch.range, deprecated there: arange
    excludes the end); float32 (the default float dtype) unless dtype says otherwise."""
    from ._ops_creation import arange
    from ._promotion import get_default_dtype
    if end is None:
        start, end = 0, start
    count = int(math.floor((end - start) / step)) + 1
    return arange(count, dtype=dtype or get_default_dtype(), device=device).mul(step).add(start) \
        .requires_grad_(requires_grad)


_TENSOR_TYPES = {"torch.FloatTensor": "float32", "torch.DoubleTensor": "float64", "torch.HalfTensor": "float16",
                 "torch.BFloat16Tensor": "bfloat16", "torch.cuda.FloatTensor": "float32",
                 "torch.cuda.DoubleTensor": "float64"}


def set_default_tensor_type(t):
    """torch.set_default_tensor_type: its float tensor type (a class or its name) as the default
    dtype (float32 or float64; meshflow's default device stays as set_default_device says)."""
    from ._promotion import set_default_dtype
    name = t if isinstance(t, str) else getattr(t, "_torch_name", None) or getattr(t, "__name__", str(t))
    name = name if name.startswith("torch.") else "torch." + name
    if name not in _TENSOR_TYPES:
        raise TypeError(f"set_default_tensor_type: only floating-point types are supported as the default type, "
                        f"got {t!r}")
    set_default_dtype(getattr(_dtype, _TENSOR_TYPES[name]))


def angle(input):
    """The argument of each element: pi for negative reals, 0 otherwise, NaN kept (integers give
    the default float dtype), as torch's for real tensors."""
    from ._ops_elementwise import where
    x = input if input.dtype.is_floating_point else input.to(_default_float())
    return where(x < 0, math.pi, where(x != x, x, 0.0))


def _default_float():
    from ._promotion import get_default_dtype
    return get_default_dtype()


_interop_threads = [1]


def get_num_interop_threads():
    """The threads torch would run independent ops on; meshflow's VM issues them in order, so
    the count set is kept and changes nothing."""
    return _interop_threads[0]


def set_num_interop_threads(n):
    if int(n) < 1:
        raise RuntimeError("Number of interop threads must be positive")
    _interop_threads[0] = int(n)


def set_flush_denormal(mode):
    """torch.set_flush_denormal: False (not supported: meshflow's kernels keep denormals), as
    torch answers on a CPU without the feature."""
    return False


def _reads_own_storage(t):
    """Whether torch's storage of t holds t's elements in row-major order from its first: t is
    no view, or a whole, contiguous reshape of such a tensor (view, reshape, flatten)."""
    record = getattr(t, "_view", None)
    while record is not None:
        base, kind = record[0], record[1]
        if kind.region is not None or base.numel() != t.numel() or not t.is_contiguous():
            return False
        t, record = base, getattr(base, "_view", None)
    return True


def _strided_index(input, size, stride, storage_offset):
    """The row-major positions in input of as_strided's elements, as an index tensor."""
    import numpy as np
    from ._ops_index import _ints_like
    size, stride = [int(n) for n in size], [int(n) for n in stride]
    if len(size) != len(stride):
        raise RuntimeError(f"mismatch in length of strides and shape: {len(stride)} strides for {len(size)} sizes")
    if any(n < 0 for n in size) or any(s < 0 for s in stride) or storage_offset < 0:
        raise RuntimeError(f"as_strided: sizes {size}, strides {stride} and storage_offset {storage_offset} must "
                           "not be negative")
    index = np.full(size, int(storage_offset), dtype=np.int64)
    for dim, (n, s) in enumerate(zip(size, stride)):
        index = index + (np.arange(n, dtype=np.int64) * s).reshape([n if d == dim else 1 for d, _ in enumerate(size)])
    if index.size and index.max() >= input.numel():
        raise RuntimeError(f"setStorage: sizes {size}, strides {stride}, storage offset {storage_offset} reach "
                           f"element {int(index.max())}, out of bounds for storage of {input.numel()} elements")
    return _ints_like(input, index.reshape(-1))


def as_strided(input, size, stride, storage_offset=0):
    """torch.as_strided of a tensor that holds its own elements (not a view): element
    [i_0, i_1, ...] is input's row-major element storage_offset + sum(i_k * stride_k), as
    torch reads a dense tensor's storage (sliding windows, im2col). A view (_inplace.py):
    writes to it reach input, as torch's. A view of part of a tensor, or a permuted one, is
    refused: torch would read its base's storage, from the base's first element."""
    if not _reads_own_storage(input):
        raise NotImplementedError("as_strided: the input is a view of part of another tensor (or permuted), whose "
                                  "storage torch would read; meshflow reads a tensor's own elements: call it on "
                                  "input.contiguous().clone()")
    return input.reshape(-1)[_strided_index(input, size, stride, storage_offset)].reshape([int(n) for n in size])


def segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0, unsafe=False, initial=None):
    """torch.segment_reduce: `reduce` ('sum', 'mean', 'max', 'min', 'prod') of each run of
    consecutive rows of data along dim 0, the runs given by 1-d `lengths` or by `offsets`
    (their starts, and the end); with `initial`, each segment's reduction starts from it
    ('mean' divides the sum with it by the segment's length, as torch's). An empty segment
    gives `initial`, or sum 0, prod 1, max -inf, min inf, mean nan. The lengths are read on
    the host; the reduction is scatter_reduce's, its gradients too."""
    from ._ops_creation import full, zeros
    from ._ops_index import _placed_like
    from ._tensor import tensor
    if reduce not in ("sum", "mean", "max", "min", "prod"):
        raise RuntimeError(f"segment_reduce: reduce {reduce!r}; expected 'sum', 'mean', 'max', 'min' or 'prod'")
    if indices is not None:
        raise RuntimeError("segment_reduce: indices is not supported; pass lengths or offsets, as torch's")
    if (lengths is None) == (offsets is None):
        raise RuntimeError("segment_reduce: expected either lengths or offsets")
    if lengths is not None:
        counts = lengths.tolist()
    else:
        starts = offsets.tolist()
        counts = [b - a for a, b in zip(starts, starts[1:])]
    if not all(isinstance(c, int) for c in counts) or axis != 0:
        raise NotImplementedError("segment_reduce: meshflow takes 1-d lengths or offsets over axis 0")
    if not unsafe and (any(c < 0 for c in counts) or sum(counts) != data.shape[0]):
        raise RuntimeError(f"segment_reduce(): Expected all rows of lengths along axis to sum to data.size(0) "
                           f"({data.shape[0]}) when !unsafe; got lengths {counts}")
    rows = tuple(data.shape[1:])
    ids = [i for i, c in enumerate(counts) for i in [i] * c]  # each row's segment (range is torch's here)
    ids = _placed_like(data, tensor(ids, dtype=_dtype.int64))
    index = ids.reshape((-1,) + (1,) * len(rows)).expand(data.shape)
    size = (len(counts),) + rows
    if reduce in ("sum", "mean"):
        total = _placed_like(data, zeros(size, dtype=data.dtype)).scatter_add(0, index, data)
        if initial is not None:
            total = total + initial
        if reduce == "sum":
            return total
        count = _placed_like(data, tensor(counts, dtype=data.dtype)).reshape((-1,) + (1,) * len(rows))
        mean = total / count
        return mean if initial is None else mean.masked_fill(count == 0, initial)
    empty = {"max": -math.inf, "min": math.inf, "prod": 1.0}[reduce]
    start = _placed_like(data, full(size, empty if initial is None else initial, dtype=data.dtype))
    how = {"max": "amax", "min": "amin", "prod": "prod"}[reduce]
    return start.scatter_reduce(0, index, data, how, include_self=initial is not None)


def _as_strided_strides(base_strides, base, view, size, stride, storage_offset=0):
    return tuple(int(s) for s in stride)


def _functional_inplace(name):
    def fn(input, *args, **kwargs):
        return getattr(input, name)(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.{name}(input, ...): input.{name}(...)."
    return fn


for _name in _INPLACE:
    if hasattr(Tensor, _name):
        globals()[_name] = _functional_inplace(_name)
        __all__.append(_name)
Tensor.angle = angle
Tensor.as_strided = _viewing(as_strided, _gathered_back(as_strided), strides=_as_strided_strides)
