"""mf.matmul: 2-d and batched (batch dims broadcast), also the @ operator."""
from ._tensor import Tensor, apply


def matmul(a, b):
    return apply("matmul", [a, b])[0]


Tensor.__matmul__ = matmul
Tensor.matmul = matmul
