"""Issue 23's classes on one process: sizes that overflow, Python numbers that do not fit a
dtype, the one scalar promotion rule (C++'s), values that must not depend on timing (NumPy
memory, in-place changes before backward), and MPI's thread level."""
import os
import subprocess
import sys

import numpy as np
import pytest

import meshflow as mf
from meshflow import _C


# ---- sizes that overflow: the error names the shape, at the call ----

@pytest.mark.parametrize("make", [
    lambda: mf.zeros(2**62, 4),
    lambda: mf.ones(2**40, 2**40),
    lambda: mf.arange(0, 2**62),
    lambda: mf.arange(-2**62, 2**62, 1),
    lambda: mf.ones(1).expand(2**40, 2**40),
    lambda: mf.ones(1, 1).expand(2**40, 2**40).sum(),
    lambda: mf.ones(6).reshape(2**62, 2**62, 0, -1),
    lambda: mf.zeros(2**31, 2**31, 2**2),
    lambda: mf.ones(1).view(2**62, 4),
    lambda: mf.ones(1).reshape(2**64),
    lambda: mf.zeros(2**70),
    lambda: mf.randn(2**33, 2**33),
    lambda: mf.ones(1).expand(2**70),
])
def test_sizes_that_overflow_raise_naming_the_shape(make):
    with pytest.raises(ValueError, match=r"int64|2\^63|elements") as e:
        make()
    assert "Unable to cast" not in str(e.value) and "(0 elements)" not in str(e.value)


def test_global_shapes_that_overflow_raise():
    p = mf.placement("cpu", ranks=[0])
    x = mf.ones(1, 1).to_global(p, mf.sbp.broadcast)
    with pytest.raises(ValueError, match=r"\[1099511627776, 1099511627776\]"):
        x.expand(2**40, 2**40)


# ---- numbers that do not fit: value and dtype named ----

@pytest.mark.parametrize("make, value, dtype", [
    (lambda: mf.full((2,), 2**70, dtype=mf.int64), "1180591620717411303424", "int64"),
    (lambda: mf.full((2,), 2**40, dtype=mf.int32), "1099511627776", "int32"),
    (lambda: mf.ones(2, dtype=mf.int64) * 2**70, "1180591620717411303424", "int64"),
    (lambda: mf.ones(2, dtype=mf.int32) + 2**40, "1099511627776", "int32"),
    (lambda: mf.ones(2, dtype=mf.int32) + (-2**31 - 1), "-2147483649", "int32"),
])
def test_numbers_that_do_not_fit_name_value_and_dtype(make, value, dtype):
    with pytest.raises(ValueError) as e:
        make()
    assert value[:6] in str(e.value).replace(".", "") and dtype in str(e.value)
    assert "Unable to cast" not in str(e.value)


@pytest.mark.parametrize("make, value", [(lambda: mf.tensor(2**70), "1180591620717411303424"),
                                         (lambda: mf.tensor([1, 2**63]), "9223372036854775808"),
                                         (lambda: mf.tensor([2**64 - 1]), "18446744073709551615"),
                                         (lambda: mf.tensor([2**40], dtype=mf.int32), "int32")])
def test_data_that_does_not_fit_int64_is_refused_not_wrapped(make, value):
    with pytest.raises(ValueError, match=value):
        make()


def test_numbers_that_fit_a_float_dtype_work():
    assert mf.full((2,), 2**70, dtype=mf.float32).numpy()[0] == np.float32(2**70)
    assert (mf.ones(2) * 2**70).numpy()[0] == np.float32(2**70)
    assert (mf.ones(2, dtype=mf.int32) + (2**31 - 2)).numpy()[0] == 2**31 - 1


# ---- one promotion rule, in C++ ----

def test_scalar_promotion_is_cpp_s_rule():
    x = mf.tensor(np.array([1, 2, 3], np.int64))
    for y, dtype, value in [(x + 2.5, mf.float32, [3.5, 4.5, 5.5]), (x * 2, mf.int64, [2, 4, 6]),
                            (x - 0.5, mf.float32, [0.5, 1.5, 2.5]), (2.5 * x, mf.float32, [2.5, 5, 7.5]),
                            (mf.maximum(x, 2.5), mf.float32, [2.5, 2.5, 3])]:
        assert y.dtype == dtype
        np.testing.assert_array_equal(y.numpy(), value)
    # The binding the operators use is the C++ rule itself.
    assert mf.Tensor(_C.promote_for_scalar(x._impl, 2.5)).dtype == mf.float32
    assert mf.Tensor(_C.promote_for_scalar(x._impl, 2)).dtype == mf.int64


# ---- results do not depend on timing ----

def test_from_numpy_an_op_takes_the_value_at_the_call():
    a = np.ones(4_000_000, np.float32)
    t = mf.from_numpy(a)
    y = t * 2.0
    a[:] = 5  # shared, as torch's: t sees it, the op issued before does not
    assert np.all(y.numpy() == 2) and np.all(t.numpy() == 5)


def test_numpy_later_writes_reach_no_op_issued_before():
    x = mf.ones(4_000_000)
    v = x.numpy()
    y = x * 2.0
    v[:] = 7
    assert np.all(y.numpy() == 2) and np.all(x.numpy() == 7)


def test_backward_after_an_in_place_change_of_a_saved_input_raises():
    w = mf.tensor(np.array([1.0, 2.0, 3.0], np.float32), requires_grad=True)
    loss = (w * w).sum()
    opt = mf.optim.SGD([w], lr=0.1)
    w.grad = mf.ones(3)
    opt.step()  # changes w in place
    with pytest.raises(RuntimeError, match="modified by an inplace operation.*version 1; expected version 0"):
        loss.backward()
    w.grad = None
    loss = (w * w).sum()  # a new call sees the new version
    loss.backward()
    np.testing.assert_allclose(w.grad.numpy(), 2 * w.numpy())


# ---- MPI ----

def test_too_low_mpi_thread_level_is_a_clear_error():
    # A program that initialized MPI itself, without threads (MPI_Init gives MPI_THREAD_SINGLE).
    code = ("import ctypes; ctypes.CDLL('libmpi.so.40', mode=ctypes.RTLD_GLOBAL).MPI_Init(None, None)\n"
            "import meshflow as mf\n"
            "print(mf.ones(2).to_global(mf.placement('cpu', ranks=[0]), mf.sbp.broadcast))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "MPI_THREAD_MULTIPLE" in r.stderr and "MPI_THREAD_SINGLE" in r.stderr, r.stderr[-2000:]


def test_a_tensor_too_large_for_memory_raises_at_the_read_and_the_process_goes_on():
    x = mf.ones(2**20, 2**20)  # 4 TiB: fits int64, not the machine
    with pytest.raises(mf.OutOfMemoryError, match=r"a float32 tensor of shape \[1048576, 1048576\]: cpu is out of "
                                                  r"memory: asked for 4194304.0 MiB"):
        (x + 1).sum().item()
    assert mf.ones(3).sum().item() == 3


def test_float_and_bfloat16_to_integer_casts_saturate():
    values = np.array([np.nan, np.inf, -np.inf, 3.7, -3.7, 1e20], np.float32)
    expected = [0, 2**31 - 1, -2**31, 3, -3, 2**31 - 1]
    for dtype in (mf.float32, mf.bfloat16):
        x = mf.tensor(values, dtype=dtype)
        np.testing.assert_array_equal(mf.cast(x, mf.int32).numpy(), expected, err_msg=str(dtype))


def test_arange_whose_quotient_would_trap_raises():
    with pytest.raises(ValueError, match=r"2\^63 - 1"):
        mf.arange(0, -2**63, -1)


def test_an_error_of_queued_work_nothing_read_ends_the_process_non_zero():
    # The bad index is found when the kernel runs, after the call returned; nothing reads the
    # result, so the error surfaces only at exit: reported, and the exit status says so.
    code = ("import meshflow as mf\n"
            "y = mf.nn.functional.embedding(mf.tensor([0, 7]), mf.randn(4, 3))\n"
            "print('issued', flush=True)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout == "issued\n"
    assert "index 7 is out of range" in r.stderr, r.stderr[-2000:]
    assert r.returncode == 1
    clean = subprocess.run([sys.executable, "-c", code.replace("7", "3")], capture_output=True, text=True, timeout=60)
    assert clean.returncode == 0, clean.stderr[-2000:]
