"""meshflow.linalg: torch.linalg's norms (composed of reductions, so they work on global
tensors in every layout)."""
import builtins

__all__ = ["norm", "vector_norm", "matrix_norm"]


def vector_norm(x, ord=2, dim=None, keepdim=False, dtype=None):
    """The ord-norm of x's elements (over `dim`, or all of them): ord a number, inf or -inf."""
    if dtype is not None:
        x = x.to(dtype)
    a = x.abs()
    if ord == float("inf"):
        return a.amax() if dim is None and not keepdim else a.amax(dim=_dims(x, dim), keepdim=keepdim)
    if ord == float("-inf"):
        return a.amin() if dim is None and not keepdim else a.amin(dim=_dims(x, dim), keepdim=keepdim)
    if ord == 0:
        return (x != 0).to(x.dtype).sum(dim=_dims(x, dim), keepdim=keepdim)
    if ord == 1:
        return a.sum(dim=_dims(x, dim), keepdim=keepdim)
    if ord == 2:
        return (x * x).sum(dim=_dims(x, dim), keepdim=keepdim).sqrt()
    return (a ** ord).sum(dim=_dims(x, dim), keepdim=keepdim) ** (1.0 / ord)


def _dims(x, dim):
    if dim is None:
        return list(range(x.ndim))
    return [dim] if isinstance(dim, int) else list(dim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, dtype=None):
    """The Frobenius norm ('fro'), or the max column (1) / row (inf) sum norm, over the last two dims."""
    if ord == "fro":
        return vector_norm(A, 2, dim=dim, keepdim=keepdim, dtype=dtype)
    rows, cols = dim
    if ord in (1, -1):
        sums = A.abs().sum(dim=rows, keepdim=True)
        out = sums.amax(dim=cols, keepdim=True) if ord == 1 else sums.amin(dim=cols, keepdim=True)
    elif ord in (float("inf"), float("-inf")):
        sums = A.abs().sum(dim=cols, keepdim=True)
        out = sums.amax(dim=rows, keepdim=True) if ord > 0 else sums.amin(dim=rows, keepdim=True)
    else:
        raise NotImplementedError(f"matrix_norm: ord={ord!r} (singular values) is not supported; "
                                  "expected 'fro', 1, -1, inf or -inf")
    return out if keepdim else out.squeeze(builtins.max(rows % A.ndim, cols % A.ndim)).squeeze(
        builtins.min(rows % A.ndim, cols % A.ndim))


def norm(A, ord=None, dim=None, keepdim=False, dtype=None):
    """torch.linalg.norm: the 2-norm of a vector, the Frobenius norm of a matrix (ord None),
    or the given ord over `dim`."""
    if ord is None:
        return vector_norm(A, 2, dim=dim, keepdim=keepdim, dtype=dtype)
    if isinstance(dim, int) or (dim is None and A.ndim == 1):
        return vector_norm(A, ord, dim=dim, keepdim=keepdim, dtype=dtype)
    return matrix_norm(A, ord, dim=(-2, -1) if dim is None else dim, keepdim=keepdim, dtype=dtype)
