"""Random sampling with PyTorch's names: randint, randint_like, randperm, bernoulli,
multinomial, normal.

Like rand and randn (_ops_creation.py), every value is a function of the generator's seed
and its element's logical index (Philox), so a global tensor holds the same values on every
placement and SBP as a local call after the same manual_seed. randint, bernoulli,
multinomial and normal are compositions of rand and randn; randperm is its own op (a sort
of Philox keys, meshflow/ops/creation.h). The values differ from torch's (another
generator), their distributions do not.
"""
import operator

from . import _C
from ._ops_creation import _create, _like, _next_call, _size, _taking_requires_grad, ones, rand, rand_like, randn, randn_like
from ._ops_select import triu
from ._ops_elementwise import floor, lt, minimum
from ._ops_shape import reshape, broadcast_to
from ._tensor import Tensor
from . import _dtype

__all__ = ["randint", "randint_like", "randperm", "bernoulli", "multinomial", "normal"]


def _uniform_ints(u, low, high, dtype):
    """low + floor(u * (high - low)) from float64 uniforms u in [0, 1), as `dtype`."""
    span = high - low
    steps = minimum(floor(u * float(span)), float(span - 1))  # the product may round up to span
    return (steps + float(low)).to(dtype) if span < 2 ** 53 else steps.to("int64").to(dtype) + low


def _check_range(name, low, high):
    low, high = operator.index(low), operator.index(high)
    if low >= high:
        raise RuntimeError(f"{name}: random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    return low, high


def randint(*args, low=None, high=None, size=None, generator=None, dtype=None, placement=None, sbp=None,
            device=None):
    """torch.randint(low=0, high, size): integers uniform in [low, high), int64 by default.
    Called as randint(high, size) or randint(low, high, size) (each also as a keyword)."""
    args = list(args)
    if size is None and args and isinstance(args[-1], (tuple, list)):
        size = args.pop()
    if len(args) > 2 or (len(args) == 2 and (low is not None or high is not None)):
        raise TypeError("randint: expected randint(high, size) or randint(low, high, size)")
    if len(args) == 2:
        low, high = args
    elif len(args) == 1:  # the high, or the low when high is a keyword
        low, high = (args[0], high) if high is not None else (low, args[0])
    if high is None:
        raise TypeError("randint: missing high")
    low = 0 if low is None else low
    if size is None:
        raise TypeError("randint: missing the size")
    low, high = _check_range("randint", low, high)
    shape = _size("randint", [size])
    u = rand(shape, generator=generator, dtype="float64", placement=placement, sbp=sbp, device=device)
    return _uniform_ints(u, low, high, dtype or "int64")


def randint_like(input, low=0, high=None, *, dtype=None, memory_format=None):
    """torch.randint_like(input, low=0, high): randint of input's shape, dtype and layout;
    randint_like(input, high) as torch."""
    if high is None:
        low, high = 0, low
    low, high = _check_range("randint_like", low, high)
    u = _like(rand, input, _dtype.float64, None, memory_format=memory_format)
    return _uniform_ints(u, low, high, dtype or input.dtype)


def randperm(n, *, generator=None, dtype=None, placement=None, sbp=None, device=None):
    """torch.randperm: a random permutation of 0 .. n-1, int64 by default (or int32); torch's
    own on the CPU from a Generator that only permutations drew from since it was seeded."""
    n = operator.index(n)
    if n < 0:
        raise RuntimeError(f"randperm: n must be non-negative, got {n}")
    if generator is not None and placement is None and sbp is None and str(device or "cpu").startswith("cpu"):
        order = generator._torch_permutation(n)
        if order is not None:
            from ._tensor import tensor
            return tensor(order, dtype=dtype or _dtype.int64)
    seed, offset = _next_call(n, generator)
    return _create("randperm", {"n": n, "seed": seed, "offset": offset}, dtype or _dtype.int64, placement, sbp,
                   device)


def bernoulli(input, p=None, *, generator=None):
    """torch.bernoulli: 1 with probability input (or the number p) per element, else 0, in
    input's dtype (floating), shape and layout."""
    probs = input if p is None else float(p)
    return lt(rand_like(input, generator=generator), probs).to(input.dtype)


def _cdf(probs):
    """The running sums along the last dim of [rows, k] probs: a product with an upper
    triangle of ones (k x k)."""
    k = probs.shape[-1]
    if probs.is_global:
        from .sbp import broadcast
        upper = triu(ones(k, k, dtype=probs.dtype, placement=probs.placement, sbp=[broadcast] * len(probs.sbp)))
    else:
        upper = triu(ones(k, k, dtype=probs.dtype, device=probs.device))
    return probs @ upper


def _sample_rows(probs, count, generator):
    """`count` draws with replacement from each row of non-negative [rows, k] probs: the
    number of running sums <= a uniform draw scaled to the row's total."""
    rows, k = probs.shape
    cdf = _cdf(probs)
    total = cdf[:, k - 1:]
    if probs.is_global:
        u = rand(rows, count, generator=generator, dtype=probs.dtype, placement=probs.placement,
                 sbp=tuple(probs.sbp))
    else:
        u = rand(rows, count, generator=generator, dtype=probs.dtype, device=probs.device)
    target = reshape(u * total, [rows, count, 1])
    below = (reshape(cdf, [rows, 1, k]) <= target).to("int64").sum(-1)
    return minimum(below, k - 1)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """torch.multinomial: num_samples category indices (int64) per row of input, a 1-d or 2-d
    tensor of non-negative weights (not necessarily summing to 1), drawn by inverse CDF from
    rand; without replacement, one draw at a time with the drawn categories' weights zeroed."""
    num_samples = operator.index(num_samples)
    if input.ndim not in (1, 2):
        raise RuntimeError(f"multinomial: prob_dist must be 1 or 2 dim, got {input.ndim}")
    if num_samples <= 0:
        raise RuntimeError(f"multinomial: cannot sample n_sample <= 0 samples, got {num_samples}")
    probs = input if input.ndim == 2 else reshape(input, [1, -1])
    if not _C.tracing():  # the checks read the weights (torch checks them too)
        _check_weights(probs, num_samples, replacement)
    probs = probs.detach()
    if replacement:
        out = _sample_rows(probs, num_samples, generator)
    else:
        from ._ops_index import one_hot
        from ._ops_shape import cat
        drawn = []
        for _ in range(num_samples):
            pick = _sample_rows(probs, 1, generator)
            drawn.append(pick)
            probs = probs * (1 - one_hot(reshape(pick, [-1]), probs.shape[1]).to(probs.dtype))
        out = cat(drawn, 1)
    return out if input.ndim == 2 else reshape(out, [-1])


def _check_weights(probs, num_samples, replacement):
    values = probs._numpy()
    if (values < 0).any() or not (values == values).all():
        raise RuntimeError("multinomial: probability tensor contains either `inf`, `nan` or element < 0")
    if (values.sum(-1) <= 0).any():
        raise RuntimeError("multinomial: invalid multinomial distribution (sum of probabilities <= 0)")
    if not replacement:
        if num_samples > probs.shape[1]:
            raise RuntimeError("multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement")
        if ((values > 0).sum(-1) < num_samples).any():
            raise RuntimeError("multinomial: invalid multinomial distribution (with replacement=False, not enough "
                               "non-negative category to sample)")


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, placement=None, sbp=None, device=None):
    """torch.normal: mean + std * a standard normal draw, for tensors and/or numbers mean and
    std (broadcast together, in the tensors' layout), or numbers and `size`. No gradient
    flows to mean and std (torch's are zero)."""
    tensors = [t for t in (mean, std) if isinstance(t, Tensor)]
    if not tensors:
        if size is None:
            raise TypeError("normal: with a number mean and std, give size")
        if float(std) < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
        return randn(_size("normal", [size]), generator=generator, dtype=dtype, placement=placement, sbp=sbp,
                     device=device) * float(std) \
            + float(mean)
    shape = list(tensors[0].shape) if len(tensors) == 1 else list(
        __import__("numpy").broadcast_shapes(tuple(mean.shape), tuple(std.shape)))
    mean = mean.detach() if isinstance(mean, Tensor) else mean
    std = std.detach() if isinstance(std, Tensor) else std
    like = tensors[0] if list(tensors[0].shape) == shape else broadcast_to(tensors[0], shape)
    return randn_like(like.detach(), generator=generator) * std + mean


normal = _taking_requires_grad(normal)  # d2l's `torch.normal(0, 0.01, size, requires_grad=True)`
Tensor.bernoulli = bernoulli
Tensor.multinomial = multinomial
