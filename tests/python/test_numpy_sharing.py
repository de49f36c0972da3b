"""torch.from_numpy / as_tensor / Tensor.numpy() share memory with NumPy, as torch's (issue 37):
a write through either side shows in the other, in-place ops and optimizer steps included,
and the eager VM's asynchrony never shows (an op issued before a write through the array
keeps the value it was given). Each expectation is what torch 2.x does for the same lines."""
import gc

import numpy as np
import pytest

import meshflow as mf


def test_from_numpy_shares_both_ways():
    a = np.zeros((2, 3), np.float32)
    t = mf.from_numpy(a)
    a[0, 1] = 5
    assert t[0, 1].item() == 5
    t.add_(1)
    np.testing.assert_array_equal(a, [[1, 6, 1], [1, 1, 1]])
    t[1, 2] = 9
    assert a[1, 2] == 9
    t.zero_()
    assert not a.any()
    t.fill_(3).clamp_(max=2)
    np.testing.assert_array_equal(a, np.full((2, 3), 2))
    t += mf.ones(3)
    t.mul_(mf.tensor(2.0))
    np.testing.assert_array_equal(a, np.full((2, 3), 6))
    assert t.numpy().base is not None and np.shares_memory(t.numpy(), a)


def test_in_place_ops_of_every_kind_reach_the_array():
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    t = mf.from_numpy(a)
    t.exp_().log_()  # unary
    t.copy_(mf.tensor([[1.0, 2, 3], [4, 5, 6]]))
    t.masked_fill_(t > 4, 0)
    t[0] = mf.tensor([7.0, 8, 9])  # indexed write
    t[:, 0] += 1  # a write through a box view
    t.T.mul_(2)  # through a transposed view
    t.index_add_(1, mf.tensor([0]), mf.ones(2, 1, dtype=mf.float64))
    np.testing.assert_array_equal(a, [[17, 16, 18], [11, 0, 0]])


def test_numpy_of_a_tensor_shares_both_ways():
    t = mf.arange(6, dtype=mf.float32)
    a = t.numpy()
    t.add_(1)
    np.testing.assert_array_equal(a, np.arange(1, 7))
    a[0] = 100
    assert t[0].item() == 100 and (t * 2)[0].item() == 200
    b = t.numpy()
    assert np.shares_memory(a, b)


def test_values_do_not_depend_on_timing():
    # An op issued before a write through the array keeps what it was given, as torch's,
    # however long it waits in the VM's queue.
    a = np.ones(2_000_000, np.float32)
    t = mf.from_numpy(a)
    y = t * 2.0
    a[:] = 5
    assert np.all(y.numpy() == 2) and np.all(t.numpy() == 5)
    x = mf.ones(2_000_000)
    big = mf.ones(2_000_000)
    for _ in range(5):
        big = big * 1.0  # work queued ahead of the reader below
    z = x * 3.0
    v = x.numpy()
    v[:] = 7
    assert np.all(z.numpy() == 3) and np.all(x.numpy() == 7)
    x.add_(1)
    assert np.all(v == 8)  # the array sees the write at once


def test_optimizer_step_reaches_the_array():
    w = np.array([1.0, 2.0], np.float32)
    p = mf.nn.Parameter(mf.from_numpy(w))
    for opt in (mf.optim.SGD([p], lr=0.1, momentum=0.9), mf.optim.Adam([p], lr=0.1), mf.optim.Adamax([p], lr=0.1)):
        before = w.copy()
        (p * p).sum().backward()
        opt.step()
        opt.zero_grad()
        np.testing.assert_array_equal(w, p.detach().numpy())
        assert not np.array_equal(w, before)


def test_views_of_the_array_and_of_the_tensor():
    a = np.zeros((4, 3), np.int64)
    t = mf.from_numpy(a[1:3])  # a C-contiguous view of the array shares it
    t.fill_(4)
    assert a[1:3].sum() == 24 and a[0].sum() == 0 and a[3].sum() == 0
    a[2, 2] = -1
    assert t[1, 2].item() == -1
    r = mf.from_numpy(a).view(12)
    a[0, 0] = 3
    assert r[0].item() == 3
    r[11] = 8
    assert a[3, 2] == 8


def test_non_contiguous_and_read_only_arrays_are_copied():
    # torch shares these too (with strides, and with a warning for a read-only array);
    # meshflow's tensors are dense, so these two copy (docs/porting.md).
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = mf.from_numpy(a[:, ::2])
    np.testing.assert_array_equal(t.numpy(), a[:, ::2])
    a[0, 0] = 50
    assert t[0, 0].item() == 0
    ro = np.ones(3)
    ro.setflags(write=False)
    np.testing.assert_array_equal(mf.from_numpy(ro).numpy(), ro)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int64, np.int32, np.int16, np.int8,
                                   np.uint8, np.bool_, np.complex64, np.complex128])
def test_every_dtype_shares(dtype):
    a = np.zeros(4, dtype)
    t = mf.from_numpy(a)
    assert t.numpy().dtype == dtype
    t[1] = 1
    assert a[1] == 1
    a[2] = 1
    assert t[2].item() == 1
    assert np.shares_memory(t.numpy(), a)


def test_bfloat16_numpy_is_a_float32_copy():
    t = mf.ones(3, dtype=mf.bfloat16)
    a = t.numpy()
    assert a.dtype == np.float32
    t.add_(1)
    assert a[0] == 1


def test_as_tensor_and_asarray_share_tensor_copies():
    a = np.zeros(3, np.float32)
    s1, s2 = mf.as_tensor(a), mf.asarray(a)
    copies = [mf.tensor(a), mf.as_tensor(a, dtype=mf.float64), mf.asarray(a, copy=True)]
    a[0] = 2
    assert s1[0].item() == 2 and s2[0].item() == 2
    assert all(c[0].item() == 0 for c in copies)


def test_the_array_keeps_the_memory_alive():
    t = mf.arange(1000, dtype=mf.float64)
    a = t.numpy()
    del t
    gc.collect()
    for _ in range(10):
        mf.ones(1000, dtype=mf.float64).add_(1)  # allocations that would reuse freed memory
    np.testing.assert_array_equal(a, np.arange(1000))
    b = np.arange(5.0)
    u = mf.from_numpy(b) * 1  # a copy; then the tensor over b goes
    v = mf.from_numpy(b)
    del b
    gc.collect()
    v.add_(1)
    np.testing.assert_array_equal(v.numpy(), np.arange(1.0, 6.0))
    np.testing.assert_array_equal(u.numpy(), np.arange(5.0))


def test_arrays_dropped_on_a_worker_are_freed():
    import weakref

    class Arr(np.ndarray):
        pass

    a = np.ones(1 << 20, np.float32).view(Arr)
    alive = weakref.ref(a)
    y = mf.from_numpy(a) * 2.0  # the op holds the tensor; the worker may drop it last
    del a
    y.numpy()
    mf.synchronize()
    for _ in range(3):
        gc.collect()
        mf.ones(1).item()  # a point where the interpreter runs pending calls
    assert alive() is None


def test_gradients_and_reads_of_shared_tensors():
    a = np.array([1.0, 2.0, 3.0], np.float32)
    x = mf.from_numpy(a).requires_grad_()
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2, 4, 6])
    a[0] = 10  # a write through the array is no autograd write (torch does not see it either)
    assert x.detach()[0].item() == 10
    with mf.no_grad():
        x.mul_(2)
    np.testing.assert_array_equal(a, [20, 4, 6])


def test_from_numpy_does_not_wait_for_queued_work():
    # A fresh array is read by no queued op: from_numpy marks it shared without waiting.
    # Timed against the queue's drain; a preempted attempt is retried, while a from_numpy
    # that waited for the queue would fail every attempt.
    import time

    def attempt():
        x = mf.ones(1_000_000)
        for _ in range(40):
            x = x * 1.0 + 0.0
        t0 = time.perf_counter()
        mf.from_numpy(np.zeros(3, np.float32))
        issued = time.perf_counter() - t0
        t0 = time.perf_counter()
        mf.synchronize()
        return issued < time.perf_counter() - t0

    assert any(attempt() for _ in range(3))


def test_a_write_through_a_view_taken_before_an_array_write_keeps_that_write():
    # torch's views read the storage; meshflow's hold values of their own, taken again from
    # their base before a write through them, so the write does not put old values back.
    a = np.zeros((3, 4), np.float32)
    t = mf.from_numpy(a)
    row, col = t[1], t[:, 1]
    a[1, 1] = 9
    row.add_(1)
    a[2, 1] = 5
    col[0] = 7
    col.masked_fill_(col == 5, 6)
    np.testing.assert_array_equal(a, [[0, 7, 0, 0], [1, 10, 1, 1], [0, 6, 0, 0]])
