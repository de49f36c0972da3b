"""mf.autograd.Function: Python-defined ops with their own backward, as torch's."""
import numpy as np
import pytest

import meshflow as mf


class Cube(mf.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return x * x * x * scale

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x * ctx.scale, None


def test_function_forward_and_backward_as_defined():
    x = mf.tensor([1.0, -2.0, 0.5], requires_grad=True)
    y = Cube.apply(x, 2.0)
    assert y.grad_fn.name() == "CubeBackward"
    np.testing.assert_allclose(y.numpy(), 2 * np.array([1.0, -8.0, 0.125]))
    (y * y).sum().backward()  # d/dx (2x^3)^2 = 24 x^5
    np.testing.assert_allclose(x.grad.numpy(), 24 * np.array([1.0, -2.0, 0.5]) ** 5, rtol=1e-6)


def test_function_without_grad_records_nothing_and_backward_errors_reach_the_caller():
    x = mf.tensor([1.0, 2.0])
    assert Cube.apply(x, 1.0).grad_fn is None

    class Failing(mf.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            raise KeyError("raised in backward")

    w = mf.tensor([1.0], requires_grad=True)
    with pytest.raises(KeyError, match="raised in backward"):
        Failing.apply(w).sum().backward()


def test_function_with_several_outputs_and_an_input_returned_as_is():
    class SplitSum(mf.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a + b, a

        @staticmethod
        def backward(ctx, g_sum, g_a):
            return g_sum + (g_a if g_a is not None else 0), g_sum

    a = mf.tensor([1.0, 2.0], requires_grad=True)
    b = mf.tensor([3.0, 4.0], requires_grad=True)
    s, same = SplitSum.apply(a, b)
    assert a.is_leaf and a.grad_fn is None  # the input itself did not become an output
    (s * 2 + same * 3).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [5.0, 5.0])
    np.testing.assert_allclose(b.grad.numpy(), [2.0, 2.0])
