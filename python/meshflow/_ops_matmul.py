"""mf.matmul: 2-d and batched (batch dims broadcast), also the @ operator; torch's 1-d forms
(vector @ matrix, matrix @ vector, vector @ vector) as a matrix product with the vector's
dim added and then dropped; mm, bmm, mv and dot as its named forms."""
import functools as _functools

from . import _C
from ._tensor import Tensor, _impl_of, apply

__all__ = ["matmul", "mm", "bmm", "mv", "dot"]


def matmul(a, b, transpose_a=False, transpose_b=False):
    """a @ b over the last two dims; transpose_a / transpose_b read an operand transposed
    without copying it (matmul(q, k, transpose_b=True) is q @ k^T). A 1-d operand is a row
    (first) or a column (second) vector, and its dim is dropped from the result."""
    flags = {"transpose_a": transpose_a, "transpose_b": transpose_b}
    attrs = {key: True for key, on in flags.items() if on}
    for t in (a, b):
        _impl_of("matmul", t)  # a TypeError naming the op for anything but a tensor
    vector_a, vector_b = a.ndim == 1, b.ndim == 1
    if not vector_a and not vector_b:
        return apply("matmul", [a, b], attrs)[0]
    out = apply("matmul", [a.unsqueeze(0) if vector_a else a, b.unsqueeze(-1) if vector_b else b], attrs)[0]
    if vector_b:
        out = out.squeeze(-1)  # the column
    if vector_a:
        out = out.squeeze(-1 if vector_b else -2)  # the row
    return out


def _named(name, ndims, doc):
    """matmul under torch's name for operands of exactly these dims."""
    def op(a, b):
        for t, ndim in zip((a, b), ndims):
            _impl_of(name, t)
            if t.ndim != ndim:
                raise _C.OpError(f"[{name}] expected a {ndim}-d tensor, got shape {tuple(t.shape)}")
        return _C.grad_fn_as(matmul(a, b), node, a, b)
    # torch's node where meshflow's matmul is named otherwise
    node = {"bmm": "BmmBackward0", "mv": "MvBackward0", "dot": "DotBackward0"}.get(name)
    op.__name__, op.__doc__ = name, doc
    return op


mm = _named("mm", (2, 2), "a @ b for matrices.")
bmm = _named("bmm", (3, 3), "a @ b for batches of matrices [B, n, k] @ [B, k, m].")
# mm and bmm of two tensors of exactly 2 and 3 dims in C (_C.tensor_method's "mm" and "bmm"
# forms): one call; _numpy_names remakes each over its out= wrapper.
mm = _functools.update_wrapper(_C.tensor_method("mm", "matmul", None, mm), mm)
mm.remake = _functools.partial(_C.tensor_method, "mm", "matmul", None)
bmm = _functools.update_wrapper(_C.tensor_method("bmm", "matmul", None, bmm), bmm)
bmm.remake = _functools.partial(_C.tensor_method, "bmm", "matmul", None)
mv = _named("mv", (2, 1), "matrix @ vector.")
dot = _named("dot", (1, 1), "The sum of a * b for two vectors.")


# a @ b of two tensors of at least 2 dims in C (_C.tensor_method's "matrices" form): one call.
Tensor.__matmul__ = Tensor.matmul = _functools.update_wrapper(_C.tensor_method("matrices", "matmul", None, matmul),
                                                              matmul)
Tensor.mm, Tensor.bmm, Tensor.mv, Tensor.dot = mm, bmm, mv, dot
