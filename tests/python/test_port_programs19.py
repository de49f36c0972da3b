"""Whole programs as PyTorch users write them (issue 37, nineteenth programs round), focused on
numerics and the tensor API as programs use it: dtype promotion with Python and NumPy scalars,
in-place ops that refuse a promotion, integer division and remainder signs, rounding, clamp
with tensors, reductions with dtype=, keepdim, several dims and empty inputs, NaN-aware ops,
cumulative ops, sorting, topk, unique, searchsorted, histograms, the scatter, gather and index
families, torch.linalg, the fft family, complex tensors, torch.distributions, seeded random
ops, sparse COO, einsum and friends, creation ops, printing, NumPy round trips and the Python
number protocol. Each program in port_programs19/ is torch's spelling, run unchanged but for
its imports, and must agree with what PyTorch 2 printed for it (expected.json), as
test_port_programs9's."""
import os

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs19"), "y")


def test_remainder_is_fmod_moved_by_one_divisor_exact_and_signed_as_torch_s():
    # a - floor(a / b) * b rounded (1e7 + 0.3) % 0.7 to 0 and made -0.0 % 3 +0.0
    x = mf.tensor([1e7 + 0.3, -0.0, -5.0, 5.5, -5.5])
    got = mf.remainder(x, mf.tensor([0.7, 3.0, float("inf"), -2.0, 2.0]))
    np.testing.assert_allclose(got.tolist(), [0.37029898166656494, -0.0, float("inf"), -0.5, 0.5], rtol=1e-6)
    assert mf.signbit(got).tolist() == [False, True, False, True, False]
    assert (mf.tensor([7, -7, 5], dtype=mf.int8) % mf.tensor([-3, 3, -1], dtype=mf.int8)).tolist() == [-2, 2, 0]
    assert (mf.tensor([5, 250], dtype=mf.uint8) % 3).tolist() == [2, 1] and (10 % mf.tensor([3, -4])).tolist() == [1, -2]
    a = mf.tensor([1.0, -2.0], requires_grad=True)
    b = mf.tensor([0.7, 0.3], requires_grad=True)
    mf.remainder(a * 3, b).sum().backward()
    assert a.grad.tolist() == [3.0, 3.0] and b.grad.tolist() == [-4.0, 20.0]  # -floor(a / b), torch's


def test_integer_clamp_and_hardtanh_keep_the_dtype_and_take_bounds_past_its_range_on_their_side():
    u = mf.tensor([0, 100, 250], dtype=mf.uint8)
    i = mf.tensor([-100, 0, 100], dtype=mf.int8)
    assert u.clamp(max=300).tolist() == [0, 100, 250] and u.clamp(min=-5).dtype == mf.uint8
    assert i.clamp(-1000, 1000).tolist() == [-100, 0, 100] and mf.tensor([3, 9]).clamp_(max=2 ** 40).tolist() == [3, 9]
    for bad in (lambda: u.clamp(min=300), lambda: i.clamp(max=-200), lambda: F.hardtanh(i, -200.5, -150.2)):
        with pytest.raises(RuntimeError, match="outside the representable range of"):
            bad()
    # hardtanh and relu6 keep an integer dtype (bounds truncated toward zero), as torch's
    assert F.hardtanh(i, -2.5, 4.5).tolist() == [-2, 0, 4] and F.hardtanh(i).dtype == mf.int8
    assert F.relu6(mf.tensor([-5, 2, 9])).tolist() == [0, 2, 6] and F.relu6(u).dtype == mf.uint8
    assert F.hardtanh(u, 0.5, 300.7).tolist() == [0, 100, 250] and nn.ReLU6()(mf.tensor([7])).dtype == mf.int64
    assert u.clamp(min=2.5).dtype == mf.float32  # clamp promotes where hardtanh does not


def test_clamp_hardtanh_and_pad_refuse_a_float_number_past_the_float_dtype_s_range():
    for bad in (lambda: mf.ones(1).clamp(min=-1e39), lambda: F.hardtanh(mf.ones(1), -1e39, 1.0),
                lambda: F.pad(mf.ones(1), (1, 1), value=1e39), lambda: mf.ones(1, dtype=mf.bfloat16).clamp(max=1e39)):
        with pytest.raises(RuntimeError, match="cannot be converted to type .* without overflow"):
            bad()
    assert mf.ones(2).clamp(max=float("inf")).tolist() == [1.0, 1.0] and mf.ones(1, dtype=mf.float64).clamp(max=1e300).item() == 1.0
    assert F.pad(mf.ones(1, dtype=mf.float16), (1, 0), value=-2.0).tolist() == [-2.0, 1.0]


def test_a_number_fills_one_half_element_unchecked_as_torch_s_fill_but_masked_and_index_fill_check_it():
    assert mf.zeros(1, dtype=mf.float16).fill_(1e5).tolist() == [float("inf")]
    assert mf.full((1,), 1e39, dtype=mf.bfloat16).tolist() == [float("inf")]
    assert mf.zeros((), dtype=mf.float16).fill_(-1e6).item() == float("-inf")
    assert mf.full_like(mf.zeros(1, 1, dtype=mf.float16), 1e5).tolist() == [[float("inf")]]
    one = mf.zeros(1, dtype=mf.float16)
    for bad in (lambda: one.masked_fill(mf.tensor([True]), 1e5), lambda: one.index_fill(0, mf.tensor([0]), 1e5),
                lambda: mf.zeros(2, dtype=mf.float16).fill_(1e5), lambda: mf.zeros(1).fill_(1e39)):
        with pytest.raises(RuntimeError, match="without overflow"):
            bad()
    x = mf.zeros(2)
    with pytest.raises(RuntimeError, match="without overflow"):
        x[0] = 1e39  # float32's one element is checked (torch's fill_ skips the check for halves only)
    b = mf.zeros(2, 2, dtype=mf.bfloat16)
    b[0, 0] = 1e39
    assert b[0].tolist() == [float("inf"), 0.0]


def test_logsumexp_over_nothing_is_minus_infinity():
    assert mf.zeros(0, 3).logsumexp(0).tolist() == [float("-inf")] * 3
    assert mf.zeros(3, 0).logsumexp(1).tolist() == [float("-inf")] * 3 and mf.zeros(3, 0).logsumexp(0).shape == (0,)
    assert mf.zeros(0, 3).logsumexp((0, 1)).item() == float("-inf")


def test_tensors_made_in_inference_mode_are_inference_tensors_that_autograd_refuses_to_save():
    with mf.inference_mode():
        a = mf.ones(3) * 2
        v = mf.zeros(2)
        v.add_(1)
        with mf.inference_mode(False):
            c = mf.ones(1)
    assert a.is_inference() and v.is_inference() and a.detach().is_inference() and not c.is_inference()
    assert not a.clone().is_inference() and not mf.ones(1).is_inference()
    with mf.no_grad():
        assert not (mf.ones(2) + 1).is_inference()
    w = mf.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward"):
        a * w
    (a.clone() * w).sum().backward()
    assert w.grad.tolist() == [2.0, 2.0, 2.0] and (a + w).requires_grad  # add saves nothing
    # torch refuses an in-place write to one outside the mode, whichever way it is written
    for write in (lambda: a.add_(1), lambda: a.__setitem__(0, 5.0), lambda: a.__iadd__(1), lambda: a.zero_(),
                  lambda: a.masked_fill_(a > 0, 0.0), lambda: a.copy_(mf.zeros(3)), lambda: a[1:].mul_(2)):
        with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside InferenceMode"):
            write()
    assert a.tolist() == [2.0, 2.0, 2.0]
    with mf.inference_mode():
        a.mul_(2)
    b = a.clone()
    b.add_(1)
    assert a.tolist() == [4.0, 4.0, 4.0] and b.tolist() == [5.0, 5.0, 5.0]


def test_layouts_print_as_torch_s_dtypes_convert_and_sizes_take_integer_tensors():
    assert str(mf.zeros(1).layout) == "meshflow.strided" and mf.zeros(1).layout is mf.strided
    assert repr(mf.eye(2).to_sparse().layout) == "meshflow.sparse_coo"
    assert mf.float32.to_complex() == mf.complex64 and mf.float64.to_complex() == mf.complex128
    assert mf.complex128.to_real() == mf.float64 and mf.int8.to_real() == mf.int8
    with pytest.raises(RuntimeError, match="no complex counterpart"):
        mf.int32.to_complex()
    assert mf.ones(mf.tensor(2), 3).shape == (2, 3) and mf.zeros((np.int32(2), mf.tensor(1))).shape == (2, 1)
    with pytest.raises(TypeError, match="sizes must be ints"):
        mf.ones(mf.tensor(2.0))


def test_a_float16_tensor_s_clamp_hardtanh_and_pad_numbers_convert_to_float16_not_float32():
    # the ops run float16 widened to float32; their numbers are checked against the dtype given
    h = mf.tensor([1.0, -2.0], dtype=mf.float16, requires_grad=True)
    for bad in (lambda: h.clamp(-1e5, 1e5), lambda: F.hardtanh(h, -7e4, 1.0), lambda: h.clamp(max=65505.0),
                lambda: F.pad(h, (1, 1), value=1e5), lambda: nn.Hardtanh(-1.0, 7e4)(h)):
        with pytest.raises(RuntimeError, match="cannot be converted to type float16 without overflow"):
            bad()
    assert h.clamp(max=float("inf")).tolist() == [1.0, -2.0] and h.clamp(-65504, 65504).dtype == mf.float16
    assert F.pad(h, (1, 1), value=65504.0).tolist() == [65504.0, 1.0, -2.0, 65504.0]
    assert h.detach().bfloat16().clamp(-1e5, 1e5).tolist() == [1.0, -2.0]  # bfloat16 holds 1e5
    h.clamp(-1.5, 65504).sum().backward()
    assert h.grad.tolist() == [1.0, 0.0] and h.grad.dtype == mf.float16
