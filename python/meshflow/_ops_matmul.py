"""mf.matmul: 2-d and batched (batch dims broadcast), also the @ operator."""
from ._tensor import Tensor, apply


def matmul(a, b, transpose_a=False, transpose_b=False):
    """a @ b over the last two dims; transpose_a / transpose_b read an operand transposed
    without copying it (matmul(q, k, transpose_b=True) is q @ k^T)."""
    flags = {"transpose_a": transpose_a, "transpose_b": transpose_b}
    return apply("matmul", [a, b], {key: True for key, on in flags.items() if on})[0]


Tensor.__matmul__ = matmul
Tensor.matmul = matmul
