"""The meta device (meshflow/device/meta): tensors with shapes and dtypes but no values, for
deferred initialization (`with mf.device("meta"):`, Module.to_empty, then nn.init or
load_state_dict(assign=True)) and shape-only runs, as PyTorch's meta device."""

import numpy as np
import pytest

import meshflow as mf
from meshflow import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 8)
        self.fc1 = nn.Linear(8, 16)
        self.norm = nn.LayerNorm(16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, ids):
        h = self.embed(ids)  # [B, T, 8]
        h = mf.relu(self.fc1(h))
        h = self.norm(h).reshape(-1, 16)  # a view on meta too
        return mf.softmax(self.fc2(h), dim=-1)


def reinitialize(model):
    """Every module's initialization anew, as after to_empty (HF's _init_weights, FSDP's
    param_init_fn): Linear's own, the embedding's N(0, 1), LayerNorm's ones and zeros."""
    for m in model.modules():
        if isinstance(m, nn.Linear):
            m.reset_parameters()
        elif isinstance(m, nn.Embedding):
            nn.init.normal_(m.weight)
        elif isinstance(m, nn.LayerNorm):
            nn.init.ones_(m.weight)
            nn.init.zeros_(m.bias)


def test_meta_tensors_have_shapes_and_no_memory():
    before = mf.memory_stats("cpu")["in_use_bytes"]
    x = mf.empty(1 << 20, 1 << 20, device="meta")  # 4 TiB of float32
    assert x.is_meta and not mf.zeros(1).is_meta
    assert x.device.type == "meta" and str(x.device) == "meta" and x.device == mf.device("meta")
    assert tuple(x.shape) == (1 << 20, 1 << 20) and x.dtype == mf.float32
    y = (x * 2).sum(dim=1)  # ops give shapes, run nothing
    assert tuple(y.shape) == (1 << 20,) and y.is_meta
    stats = mf.memory_stats("meta")
    assert stats["in_use_bytes"] == 0 and stats["peak_bytes"] == 0
    assert mf.memory_stats("cpu")["in_use_bytes"] - before < 1 << 20
    z = mf.randn(3, 4, dtype=mf.float64, device="meta")
    assert z.is_meta and z.dtype == mf.float64 and tuple(z.shape) == (3, 4)
    assert tuple(mf.arange(7, device="meta").shape) == (7,)


def test_factory_kwargs_and_like_ops_on_meta():
    lin = nn.Linear(4, 5, device="meta")
    assert lin.weight.is_meta and lin.bias.is_meta and tuple(lin.weight.shape) == (5, 4)
    before = mf.memory_stats("cpu")["peak_bytes"]
    big = [nn.Linear(1 << 15, 1 << 15, device="meta"), nn.Embedding(1 << 20, 1 << 12, device="meta"),
           nn.EmbeddingBag(1 << 20, 1 << 12, device="meta")]  # 4 GiB and 16 GiB: never drawn on the host
    assert all(m.weight.is_meta for m in big) and mf.memory_stats("cpu")["peak_bytes"] == before
    x = mf.ones(2, 3)
    m = x.to("meta")
    assert m.is_meta and tuple(m.shape) == (2, 3)
    assert x.to(mf.device("meta")).to("meta").is_meta
    e = m.new_empty(6, 1)
    assert e.is_meta and tuple(e.shape) == (6, 1)
    like = mf.empty_like(m)
    assert like.is_meta and tuple(like.shape) == (2, 3)
    assert mf.zeros_like(x, device="meta").is_meta
    assert repr(m) == "tensor(..., device='meta', size=(2, 3))"
    assert repr(mf.empty(2, dtype=mf.float64, device="meta")) == \
        "tensor(..., device='meta', size=(2,), dtype=meshflow.float64)"


def test_default_device_context_manager_nests_and_restores():
    with mf.device("meta"):
        assert mf.zeros(2).is_meta and mf.get_default_device() == mf.device("meta")
        with mf.device("cpu"):
            assert not mf.zeros(2).is_meta
        assert mf.rand(2).is_meta
    assert not mf.zeros(2).is_meta and mf.get_default_device() == mf.device("cpu")
    mf.set_default_device("meta")
    try:
        assert nn.Linear(2, 2).weight.is_meta
    finally:
        mf.set_default_device(None)
    assert not nn.Linear(2, 2).weight.is_meta


def test_forward_on_meta_gives_the_cpu_shapes():
    ids = mf.tensor(np.arange(12).reshape(3, 4) % 10)
    cpu_out = Net()(ids)
    with mf.device("meta"):
        model = Net()
    assert all(p.is_meta for p in model.parameters())
    out = model(ids.to("meta"))
    assert out.is_meta and tuple(out.shape) == tuple(cpu_out.shape) and out.dtype == cpu_out.dtype
    loss = out.log().mean()
    loss.backward()  # gradients of the parameters' shapes, on meta
    for p in model.parameters():
        assert p.grad is not None and p.grad.is_meta and tuple(p.grad.shape) == tuple(p.shape)


def test_to_empty_then_init_trains_as_the_cpu_model():
    mf.manual_seed(7)
    reference = Net()
    mf.manual_seed(7)
    reinitialize(reference)
    with mf.device("meta"):
        model = Net()
    assert model.to_empty(device="cpu") is model
    assert not any(p.is_meta for p in model.parameters())
    mf.manual_seed(7)
    reinitialize(model)
    for (name, a), (_, b) in zip(reference.state_dict().items(), model.state_dict().items()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=name)
    ids = mf.tensor(np.arange(12).reshape(3, 4) % 10)
    for net in (reference, model):
        opt = mf.optim.SGD(net.parameters(), lr=0.5)
        net(ids).log().mean().backward()
        opt.step()
    for (name, a), (_, b) in zip(reference.state_dict().items(), model.state_dict().items()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=name)


def test_load_state_dict_assign_materializes_a_meta_model():
    source = Net()
    with mf.device("meta"):
        model = Net()
    model.load_state_dict(source.state_dict(), assign=True)
    assert not any(t.is_meta for t in model.state_dict().values())
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in model.parameters())
    ids = mf.tensor([[1, 2, 3]])
    np.testing.assert_array_equal(model(ids).numpy(), source(ids).numpy())


@pytest.mark.parametrize("read", [
    lambda t: t.numpy(), lambda t: t.item(), lambda t: t.tolist(), lambda t: t.to("cpu"), lambda t: t.cpu(),
    lambda t: t.to("testdev"), lambda t: float(t), lambda t: (t + 1).numpy(),
])
def test_reading_a_meta_tensor_raises(read):
    t = mf.empty(1, device="meta")
    with pytest.raises(NotImplementedError, match=r"Cannot copy out of meta tensor; no data!.*to_empty"):
        read(t)


def test_moving_a_meta_module_says_to_use_to_empty():
    with mf.device("meta"):
        model = nn.Linear(2, 2)
    with pytest.raises(NotImplementedError, match="to_empty"):
        model.to("cpu")
    with pytest.raises(RuntimeError):  # NotImplementedError is one, as torch's
        model.weight.numpy()


def test_global_tensors_do_not_live_on_meta():
    with pytest.raises(ValueError, match="meta device"):
        mf.placement("meta", ranks=[0])
    with pytest.raises(RuntimeError, match="to_empty"):
        mf.empty(2, device="meta").to_global(placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.broadcast)
