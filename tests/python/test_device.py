"""Devices in Python: mf.device, mf.device_types, tensor.device, to / cpu, tensor(device=)."""

import numpy as np
import pytest

import meshflow as mf


def test_device_types_start_with_cpu():
    assert mf.device_types()[0] == "cpu"


@pytest.mark.parametrize("args, text, rep", [
    (("cpu",), "cpu", "device(type='cpu')"),
    (("cpu:0",), "cpu:0", "device(type='cpu', index=0)"),
    (("cpu", 1), "cpu:1", "device(type='cpu', index=1)"),
    ((mf.device("cpu:2"),), "cpu:2", "device(type='cpu', index=2)"),
])
def test_device_parses_as_torch(args, text, rep):
    d = mf.device(*args)
    assert str(d) == text and repr(d) == rep
    assert d == mf.device(text) and d == text and hash(d) == hash(mf.device(text))
    assert d.type == "cpu"


@pytest.mark.parametrize("args, error, match", [
    (("tpu",), ValueError, "'tpu' is not a registered device type; registered: cpu"),
    (("cuda:0",), ValueError, "'cuda' is not a registered device type"),
    (("cpu:x",), ValueError, "non-negative integer"),
    (("cpu:0", 1), ValueError, "has an index already"),
    (("cpu", -1), ValueError, "non-negative integer"),
    ((3,), TypeError, "device type name"),
])
def test_device_refuses_what_is_not_a_device(args, error, match):
    with pytest.raises(error, match=match):
        mf.device(*args)


def test_local_tensors_live_on_the_cpu():
    x = mf.tensor([1.0, 2.0])
    assert x.device == mf.device("cpu") and x.device.type == "cpu"
    assert x.cpu() is x and x.to("cpu") is x and x.to(mf.device("cpu")) is x
    assert mf.tensor([1, 2], device="cpu").device == "cpu"
    y = x.to("cpu", mf.float64)
    assert y.dtype == mf.float64 and np.array_equal(y.numpy(), [1.0, 2.0])
    assert x.to(dtype=mf.int32).dtype == mf.int32
    with pytest.raises(ValueError, match="'cuda' is not a registered device type"):
        x.to("cuda")
    with pytest.raises(ValueError, match="'cuda' is not a registered device type"):
        mf.tensor([1.0], device="cuda")
    with pytest.raises(TypeError, match="unexpected keyword"):
        x.to(copy=True)


def test_global_tensors_have_a_placement_not_a_device():
    g = mf.tensor([1.0, 2.0], placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.broadcast)
    with pytest.raises(RuntimeError, match="a global tensor has no device"):
        g.device
    with pytest.raises(ValueError, match="a device .* or a placement"):
        mf.tensor([1.0], device="cpu", placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.broadcast)
