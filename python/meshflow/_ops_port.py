"""torch's names that ported programs meet on their first day (issue 37, programs round), each
with torch's meaning, composed from existing ops (gradients flow where torch's do):

- constants `pi e inf nan newaxis`; settings with nothing to change in meshflow
  (`set_float32_matmul_precision`: float32 matmuls are float32 already;
  `use_deterministic_algorithms`: meshflow's kernels are deterministic; `compile`: wraps a
  module as torch's OptimizedModule, returns a function itself, both run eagerly, so their
  results are eager's, as torch.compile's promise);
  `is_autocast_enabled get_autocast_dtype typename is_nonzero is_same_size is_signed
  scalar_tensor`;
- `diag_embed diagflat fill_diagonal_ logaddexp2 inner ger addmv addr addbmm positive select
  unravel_index trapezoid cumulative_trapezoid renorm xlogy vander msort dstack row_stack
  combinations cov corrcoef mode`, the window functions `hann_window hamming_window
  blackman_window bartlett_window`, and Tensor methods of them;
- Tensor's properties of a dense tensor: `ndimension nbytes itemsize is_inference
  is_pinned pin_memory is_sparse is_quantized layout resolve_neg to_dense
  is_conj is_neg detach_` and the in-place aliases (`multiply_ divide_ ...`).
"""
import builtins
import itertools
import math

from . import _C, _dtype
from ._inplace import _inplace, install_inplace_methods
from ._ops_creation import arange, zeros
from ._ops_elementwise import minimum, where
from ._ops_shape import cat
from ._promotion import get_default_dtype
from ._function import Function as _Function
from ._tensor import Tensor, apply, is_grad_enabled, tensor
from .nn.modules import Module
from .return_types import named as _returns

__all__ = ["pi", "e", "inf", "nan", "newaxis", "set_float32_matmul_precision", "get_float32_matmul_precision",
           "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "is_deterministic_algorithms_warn_only_enabled", "compile", "is_autocast_enabled", "get_autocast_dtype",
           "is_autocast_cpu_enabled", "get_autocast_gpu_dtype", "get_autocast_cpu_dtype",
           "typename", "is_nonzero", "is_same_size", "is_signed", "scalar_tensor", "diag_embed",
           "diagflat", "logaddexp2", "inner", "ger", "addmv", "addr", "addbmm", "positive", "select",
           "unravel_index", "trapezoid", "trapz", "cumulative_trapezoid", "renorm", "xlogy", "vander", "msort",
           "dstack", "row_stack", "combinations", "cov", "corrcoef", "mode", "hann_window", "hamming_window",
           "blackman_window", "bartlett_window", "layout", "strided"]

pi, e, inf, nan, newaxis = math.pi, math.e, math.inf, math.nan, None


class layout:
    """torch.layout: how a tensor's elements lie (strided, sparse_coo), printed as torch's
    (`meshflow.strided`); one object of each, compared by identity."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"meshflow.{self.name}"


strided = layout("strided")  # the layout of meshflow's dense tensors

_settings = {"matmul_precision": "highest", "deterministic": False, "warn_only": False}


def set_float32_matmul_precision(precision):
    """Accepted as torch's ('highest', 'high', 'medium'); float32 matmuls stay float32 (no
    TF32 on the CPU; results as 'highest')."""
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"Invalid precision {precision!r}; expected 'highest', 'high' or 'medium'")
    _settings["matmul_precision"] = precision


def get_float32_matmul_precision():
    return _settings["matmul_precision"]


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Recorded as torch's; meshflow's kernels give the same bits on every run already."""
    _settings["deterministic"], _settings["warn_only"] = builtins.bool(mode), builtins.bool(warn_only)


def are_deterministic_algorithms_enabled():
    return _settings["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return _settings["warn_only"]


class OptimizedModule(Module):
    """What compile(module) returns, as torch's (torch._dynamo's OptimizedModule): the module
    registered as `_orig_mod`, so `state_dict()` names start with "_orig_mod." (the prefix
    nanoGPT's and Hugging Face's checkpoint code strips) and `model._orig_mod` unwraps it; a
    call runs the module itself, eagerly, hooks and all; every other attribute is the module's,
    read and written (`compiled.config`, `compiled.training`)."""

    _own = frozenset({"_orig_mod", "forward"})

    def __init__(self, mod):
        super().__init__()
        self._orig_mod = mod

    @property
    def training(self):
        return self._orig_mod.training

    @training.setter
    def training(self, mode):
        # Module.__init__ sets the default before _orig_mod is there: the module's own counts
        if "_orig_mod" in self.__dict__.get("_modules", {}):
            self._orig_mod.training = mode

    def forward(self, *args, **kwargs):
        return self._orig_mod(*args, **kwargs)

    def __getattr__(self, name):
        mod = self.__dict__.get("_modules", {}).get("_orig_mod")
        if mod is None:  # while unpickling or initializing: nothing to forward to yet
            raise AttributeError(f"'OptimizedModule' object has no attribute '{name}'")
        return mod if name == "_orig_mod" else getattr(mod, name)

    def __setattr__(self, name, value):
        if name in self._own or hasattr(type(self), name):
            return super().__setattr__(name, value)
        return setattr(self._orig_mod, name, value)

    def __delattr__(self, name):
        if name in self._own or hasattr(type(self), name):
            return super().__delattr__(name)
        return delattr(self._orig_mod, name)

    def __len__(self):
        return len(self._orig_mod)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(dir(self._orig_mod)))


def compile(model=None, **kwargs):
    """torch.compile's spelling: a module comes back wrapped as torch's (OptimizedModule), a
    function as itself; without either, a decorator that does so. Both run eagerly, so their
    results are eager's. mf.nn.Graph is meshflow's compiler of a training step."""
    if model is None:
        return lambda m: compile(m, **kwargs)
    return OptimizedModule(model) if isinstance(model, Module) else model


def is_autocast_enabled(device_type="cuda"):
    """Whether an autocast block of `device_type` is open, as torch's: without one, CUDA's (so
    Hugging Face's `if torch.is_autocast_enabled(): torch.get_autocast_gpu_dtype()` stays off
    inside a CPU block)."""
    dtype, on, _ = _C.autocast_state()
    return dtype is not None and device_type == on


def is_autocast_cpu_enabled():
    return is_autocast_enabled("cpu")


def get_autocast_dtype(device_type="cpu"):
    """The dtype of `device_type`'s autocast: the open block's, else torch's default for it."""
    dtype, on, _ = _C.autocast_state()
    if dtype is not None and on == device_type:
        return _dtype.to_dtype(dtype)
    return _dtype.bfloat16 if device_type == "cpu" else _dtype.float16


def get_autocast_gpu_dtype():
    return get_autocast_dtype("cuda")


def get_autocast_cpu_dtype():
    return get_autocast_dtype("cpu")


def typename(obj):
    if isinstance(obj, Tensor):
        return obj.type()
    return type(obj).__module__ + "." + type(obj).__qualname__ if type(obj).__module__ != "builtins" \
        else type(obj).__qualname__


def is_nonzero(input):
    if input.numel() != 1:
        amount = "no values" if input.numel() == 0 else "more than one value"
        raise RuntimeError(f"Boolean value of Tensor with {amount} is ambiguous")
    return builtins.bool(input.item())


def is_same_size(input, other):
    return tuple(input.shape) == tuple(other.shape)


def is_signed(input):
    return input.dtype.name not in ("bool", "uint8")


def scalar_tensor(value, *, dtype=None, device=None, requires_grad=False):
    return tensor(value, dtype=dtype or get_default_dtype(), device=device, requires_grad=requires_grad)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Matrices whose `offset` diagonal (in dims dim1, dim2 of the result) holds the last dim of
    input (torch.diag_embed)."""
    length = input.shape[-1]
    n = length + builtins.abs(offset)
    rows = arange(n, device=input.device).unsqueeze(1)
    cols = arange(n, device=input.device).unsqueeze(0)
    on = (cols - rows) == offset
    index = minimum(rows, cols).clamp(0, builtins.max(length - 1, 0))  # entry (r, c) reads input[..., min(r, c)]
    if length:
        values = input.unsqueeze(-2).expand(*input.shape[:-1], n, length)
        out = where(on, values.gather(-1, index.expand(*input.shape[:-1], n, n)), zeros((), dtype=input.dtype,
                                                                                       device=input.device))
    else:  # nothing to gather from: |offset| x |offset| zeros (the empty sum keeps the graph)
        out = input.sum(-1).to(input.dtype)[..., None, None].expand(*input.shape[:-1], n, n).contiguous()
    ndim = out.ndim
    dim1, dim2 = dim1 % ndim, dim2 % ndim
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    perm, rest = [None] * ndim, iter(range(ndim - 2))
    perm[dim1], perm[dim2] = ndim - 2, ndim - 1
    return out.permute(*[p if p is not None else next(rest) for p in perm])


def diagflat(input, offset=0):
    return diag_embed(input.reshape(-1), offset)


def _fill_diagonal_(self, fill_value, wrap=False):
    """Writes fill_value on the main diagonal (every dim of equal length for ndim > 2; with
    `wrap`, a tall matrix's diagonal starts again every ncols + 1 rows), as torch's."""
    if self.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.ndim > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")

    def compute():
        idx = [arange(s, device=self.device) for s in self.shape]
        if self.ndim == 2:
            r, c = idx[0].unsqueeze(1), idx[1].unsqueeze(0)
            period = self.shape[1] + 1
            on = (r % period == c) if wrap and self.shape[0] > self.shape[1] else (r == c)
        else:
            on = None
            for k, i in enumerate(idx[1:], 1):
                a = idx[0].reshape([-1] + [1] * (self.ndim - 1))
                b = i.reshape([1] * k + [-1] + [1] * (self.ndim - k - 1))
                eq = a == b
                on = eq if on is None else on & eq
        return self.masked_fill(on, fill_value)
    return _inplace(self, compute, "fill_diagonal_")


def logaddexp2(input, other):
    """log2(2**input + 2**other), computed stably."""
    from ._ops_elementwise import maximum
    from ._ops_elementwise import where
    m = maximum(input, other)
    m_finite = where(m.abs() == float("inf"), 0.0, m)  # equal infinities: no inf - inf (NaN), as torch's
    total = ((input - m_finite) * math.log(2)).exp().add(((other - m_finite) * math.log(2)).exp())
    return m + total.log() / math.log(2)


def inner(input, other):
    """The sum over the last dims of input and other, for every pair of their other indices."""
    if input.ndim == 0 or other.ndim == 0:
        return input * other
    k = input.shape[-1]
    out = input.reshape(-1, k).matmul(other.reshape(-1, k).t())
    return out.reshape(*input.shape[:-1], *other.shape[:-1])


def ger(input, vec2):
    return input.outer(vec2)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    return _blend(input, mat.matmul(vec), beta, alpha)


def addr(input, vec1, vec2, *, beta=1, alpha=1):
    return _blend(input, vec1.outer(vec2), beta, alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    from ._api import autocast_operand
    product = batch1.matmul(batch2).sum(0)
    return _blend(autocast_operand(input, product), product, beta, alpha)


def _blend(input, product, beta, alpha):
    product = product if alpha == 1 else product * alpha
    if beta == 0:  # torch ignores input (NaN included) when beta is 0
        return product + zeros((), dtype=product.dtype, device=product.device)
    return product + (input if beta == 1 else input * beta)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of 1-d x: columns x ** (N - 1), ..., x ** 0 (increasing: the other
    way round)."""
    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    powers = arange(n, device=x.device)
    if not increasing:
        powers = powers.flip(0)
    base = x if x.dtype.name != "bool" else x.long()
    return base.unsqueeze(1) ** powers.to(base.dtype if base.dtype.is_floating_point else _dtype.int64)


def msort(input):
    """input sorted along its first dim."""
    return input.sort(0).values


def xlogy(input, other):
    """input * log(other), 0 where input is 0 (unless other is NaN), as torch.xlogy. The
    gradient in input is log(other) also where input is 0 (torch's), so only the products
    whose log is not finite, 0 * log(other <= 0) and 0 * log(inf), take other at 1 to stay 0
    (their gradient in input is then 0, as torch's)."""
    return _x_times_log(input, other, 0.0, "log")


def _x_times_log(input, other, lowest, log):
    """input * other.<log>(), 0 where input is 0 and other is not NaN: other <= lowest
    (log's value -inf or NaN) and other == inf are taken at lowest + 1 there. The gradients
    are torch's formulas: xlogy(grad, other) in input (0 where input is 0 and other <= lowest),
    and input / (other - lowest) in other everywhere (inf at other == lowest, NaN where input is 0 too), which differentiating
    the product with other moved to lowest + 1 would not give."""
    from ._ops_elementwise import _promote, _tensors
    a, b, dtype = _promote(input, other, floats=True)
    a, b = _tensors(a, b, dtype)
    if (a.requires_grad or b.requires_grad) and is_grad_enabled():
        return _XTimesLog.apply(a, b, lowest, log)
    return _x_times_log_value(a, b, lowest, log)


def _x_times_log_value(a, b, lowest, log):
    degenerate = (a == 0) & ((b <= lowest) | (b == float("inf")))
    return a * getattr(where(degenerate, lowest + 1.0, b), log)()


class _XTimesLog(_Function):
    @staticmethod
    def forward(ctx, a, b, lowest, log):
        ctx.lowest, ctx.log = lowest, log
        ctx.save_for_backward(a, b)
        return _x_times_log_value(a, b, lowest, log)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        da = where((a == 0) & (b <= ctx.lowest), 0.0, _x_times_log(grad, b, ctx.lowest, ctx.log)) \
            if ctx.needs_input_grad[0] else None
        db = grad * a / (b - ctx.lowest) if ctx.needs_input_grad[1] else None
        # each summed over the dims it was broadcast along
        return (None if da is None else da.sum_to_size(*a.shape), None if db is None else db.sum_to_size(*b.shape),
                None, None)


def renorm(input, p, dim, maxnorm):
    """Each slice along `dim` whose p-norm exceeds maxnorm scaled down to it (torch.renorm)."""
    dim = dim % input.ndim
    others = [d for d in range(input.ndim) if d != dim]
    norm = input.norm(p, dim=others, keepdim=True) if others else input.abs()
    return input * where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0).to(input.dtype)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The trapezoid rule's integral of y along dim: spacing dx (1 by default) or the sample
    points x (torch.trapezoid)."""
    return _trapezoids(y, x, dx, dim).sum(dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    return _trapezoids(y, x, dx, dim).cumsum(dim)


def _trapezoids(y, x, dx, dim):
    n = y.shape[dim]
    mid = (y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1)) / 2 if n > 1 else y.narrow(dim, 0, 0) * 1.0
    if x is None:
        return mid * (1.0 if dx is None else dx)
    spacing = x.diff(dim=dim if x.ndim == y.ndim else -1)
    if x.ndim == 1 and y.ndim > 1:
        spacing = spacing.reshape([-1] + [1] * ((y.ndim - 1 - dim % y.ndim)))
    return mid * spacing


trapz = trapezoid


def positive(input):
    """input itself (unary +), as torch's; a bool tensor refuses, as torch's."""
    if input.dtype == _dtype.bool_:
        raise TypeError("The `+` operator, on a bool tensor is not supported.")
    return input


def select(input, dim, index):
    """input at `index` of dim `dim`, that dim removed (a view, as torch's)."""
    dim = dim % builtins.max(input.ndim, 1)
    return input[(slice(None),) * dim + (index,)]


def unravel_index(indices, shape):
    """The coordinates of flat `indices` in `shape`, one tensor per dim (torch.unravel_index)."""
    if isinstance(shape, int):
        shape = (shape,)
    indices = indices if isinstance(indices, Tensor) else tensor(indices)
    total = math.prod(shape)
    if indices.numel() and builtins.bool(((indices < -total) | (indices >= total)).any()):
        raise RuntimeError("unravel_index: index out of bounds for the shape")
    flat = indices % total if total else indices
    out = []
    for size in reversed(shape):
        out.append(flat % size)
        flat = flat // size
    return tuple(reversed(out))


def dstack(tensors):
    parts = [t.reshape(1, -1, 1) if t.ndim <= 1 else t.unsqueeze(-1) if t.ndim == 2 else t for t in tensors]
    return cat(parts, 2)


def row_stack(tensors):
    return cat([t.reshape(1, -1) if t.ndim <= 1 else t for t in tensors], 0)


def combinations(input, r=2, with_replacement=False):
    """The r-length combinations of a 1-d tensor's elements, one per row (torch.combinations)."""
    if input.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = list(pick(range(input.shape[0]), r))
    if not rows:
        return zeros(0, r, dtype=input.dtype, device=input.device) if r else zeros(0, dtype=input.dtype)
    index = tensor(rows, device=input.device)
    return input[index.reshape(-1)].reshape(len(rows), r)


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance of the variables in input's rows (observations in its columns)."""
    x = input.reshape(1, -1) if input.ndim < 2 else input
    if not x.is_floating_point() and not x.is_complex():
        x = x.to(get_default_dtype())
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = fweights
    if aweights is not None:
        w = aweights if w is None else w * aweights
    if w is None:
        mean = x.mean(1, keepdim=True)
        norm = n - correction
        centered = x - mean
        c = centered.matmul(centered.t().conj()) / builtins.max(norm, 0)
    else:
        w = w.to(_dtype.real_of(x.dtype))
        wsum = w.sum()
        mean = (x * w).sum(1, keepdim=True) / wsum
        if correction == 0:
            norm = wsum
        elif aweights is None:
            norm = wsum - correction
        else:
            norm = wsum - correction * (w * aweights.to(w.dtype)).sum() / wsum
        centered = x - mean
        c = (centered * w).matmul(centered.t().conj()) / norm.clamp(min=0)
    return c.squeeze() if input.ndim < 2 else c


def corrcoef(input):
    c = cov(input)
    if c.ndim == 0:
        return c / c
    d = c.diagonal().real.sqrt()  # a complex c's diagonal is real, as torch's
    c = c / d.unsqueeze(1) / d.unsqueeze(0)
    if c.is_complex():
        from ._complex import complex
        return complex(c.real.clamp(-1, 1), c.imag.clamp(-1, 1))
    return c.clamp(-1, 1)


def mode(input, dim=-1, keepdim=False):
    """The most frequent value along `dim` (the smallest of ties) and, among its occurrences,
    the index torch's CPU kernel returns."""
    from ._ops_math import _dim, _select
    if input.dtype == _dtype.bool_:  # counted as 0 and 1, as torch's
        values, indices = mode(input.to(_dtype.uint8), dim, keepdim)
        return _returns("mode")(values.to(_dtype.bool_), indices)
    d = _dim("mode", dim, input.ndim)
    values, indices = apply("mode", [input], {"dim": d})
    return _C.grad_fn_as(_select("mode", values, indices, d, 0, keepdim), "ModeBackward0", input)


def _window(name, length, periodic, dtype, device, terms):
    if length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={length}")
    dtype = dtype or get_default_dtype()
    if length <= 1:
        return zeros(length, dtype=dtype, device=device) + 1
    n = length if periodic else length - 1
    k = arange(length, dtype=_dtype.float64, device=device) * (2 * math.pi / n)
    w = zeros(length, dtype=_dtype.float64, device=device)
    for i, a in enumerate(terms):
        w = w + a * (k * i).cos()
    return w.to(dtype)


def hann_window(window_length, periodic=True, *, dtype=None, device=None, requires_grad=False):
    return _window("hann_window", window_length, periodic, dtype, device, (0.5, -0.5)).requires_grad_(requires_grad)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, device=None,
                   requires_grad=False):
    return _window("hamming_window", window_length, periodic, dtype, device, (alpha, -beta)).requires_grad_(
        requires_grad)


def blackman_window(window_length, periodic=True, *, dtype=None, device=None, requires_grad=False):
    return _window("blackman_window", window_length, periodic, dtype, device, (0.42, -0.5, 0.08)).requires_grad_(
        requires_grad)


def bartlett_window(window_length, periodic=True, *, dtype=None, device=None, requires_grad=False):
    dtype = dtype or get_default_dtype()
    if window_length <= 1:
        return (zeros(window_length, dtype=dtype, device=device) + 1).requires_grad_(requires_grad)
    n = window_length if periodic else window_length - 1
    k = arange(window_length, dtype=_dtype.float64, device=device) * (2.0 / n)
    return where(k <= 1, k, 2 - k).to(dtype).requires_grad_(requires_grad)


def _install():
    for name in ("diag_embed", "diagflat", "logaddexp2", "inner", "ger", "addmv", "addr", "addbmm", "positive",
                 "select", "cov", "corrcoef", "mode", "msort", "xlogy", "renorm", "is_nonzero", "is_same_size",
                 "is_signed"):
        if not hasattr(Tensor, name):
            setattr(Tensor, name, globals()[name])
    Tensor.fill_diagonal_ = _fill_diagonal_
    Tensor.__pos__ = positive
    Tensor.ndimension = lambda self: self.ndim
    Tensor.nbytes = property(lambda self: self.numel() * self.element_size())
    Tensor.itemsize = property(lambda self: self.element_size())
    Tensor.is_inference = lambda self: self._impl.is_inference
    Tensor.is_pinned = lambda self, device=None: False
    Tensor.pin_memory = lambda self, device=None: self  # host memory is host memory: copies are synchronous
    Tensor.is_sparse = property(lambda self: False)
    Tensor.is_quantized = property(lambda self: False)
    Tensor.layout = property(lambda self: strided)
    Tensor.resolve_neg = lambda self: self
    Tensor.to_dense = lambda self, dtype=None, *, masked_grad=None: self if dtype is None else self.to(dtype)
    Tensor.is_conj = Tensor.is_neg = lambda self: False
    Tensor.detach_ = _detach_
    for alias, name in (("multiply_", "mul_"), ("divide_", "div_"), ("subtract_", "sub_"), ("true_divide_", "div_"),
                        ("greater_", "gt_"), ("greater_equal_", "ge_"), ("less_", "lt_"), ("less_equal_", "le_"),
                        ("not_equal_", "ne_"), ("negative_", "neg_"), ("absolute_", "abs_")):
        if not hasattr(Tensor, alias) and hasattr(Tensor, name):
            setattr(Tensor, alias, getattr(Tensor, name))


def _detach_(self):
    """Detaches self in place: it leaves the graph and stops requiring grad (torch's detach_),
    as every other holder of it sees (p.grad.detach_() detaches the parameter's gradient)."""
    self._impl.detach_in_place()
    return self


_install()
install_inplace_methods()
