"""torch.nn.Module's API in meshflow: buffers (register_buffer, persistent, state_dict, to,
to_global), attribute rules (__setattr__ / __getattr__ / __delattr__), traversal
(named_modules, named_children, named_parameters with prefix / recurse, apply), train / eval,
requires_grad_, zero_grad, repr in torch's nested format, containers (Sequential with an
OrderedDict, indexing, slicing, append; ModuleList; ModuleDict; ParameterList;
ParameterDict) and load_state_dict's errors and result."""
import collections

import numpy as np
import pytest

import meshflow as mf
from meshflow import nn


class Norm(nn.Module):
    """A layer with a parameter, a persistent and a non-persistent buffer."""

    def __init__(self, n=3):
        super().__init__()
        self.weight = nn.Parameter(mf.ones(n))
        self.register_buffer("running_mean", mf.zeros(n))
        self.register_buffer("scratch", mf.zeros(n), persistent=False)
        self.register_buffer("absent", None)

    def forward(self, x):
        return (x - self.running_mean) * self.weight


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = Norm()
        self.fc = nn.Linear(3, 2)


# ---------------------------------------------------------------------------------------------
# Buffers

def test_buffers_are_state_but_not_parameters():
    net = Net()
    assert [n for n, _ in net.named_parameters()] == ["norm.weight", "fc.weight", "fc.bias"]
    assert [n for n, _ in net.named_buffers()] == ["norm.running_mean", "norm.scratch"]
    assert len(list(net.buffers())) == 2 and not net.norm.running_mean.requires_grad
    # torch's order: each module's parameters, then its persistent buffers, then children's.
    assert list(net.state_dict()) == ["norm.weight", "norm.running_mean", "fc.weight", "fc.bias"]
    assert net.norm.absent is None
    net.norm.running_mean = mf.ones(3)  # a buffer's name takes any tensor
    assert "running_mean" in net.norm._buffers
    np.testing.assert_array_equal(net.state_dict()["norm.running_mean"].numpy(), np.ones(3))
    with pytest.raises(TypeError, match=r"cannot assign 'int' as buffer 'running_mean'"):
        net.norm.running_mean = 3
    with pytest.raises(KeyError, match=r"attribute 'weight' already exists"):
        net.norm.register_buffer("weight", mf.zeros(3))
    with pytest.raises(KeyError, match=r"buffer name 'a.b' is empty or has a '.'"):
        net.norm.register_buffer("a.b", mf.zeros(3))
    with pytest.raises(TypeError, match=r"cannot assign 'numpy.ndarray' object to buffer 'x'"):
        net.norm.register_buffer("x", np.zeros(3))


def test_buffers_load_and_convert_like_parameters():
    net = Net()
    held = net.norm.running_mean
    state = net.state_dict()
    state["norm.running_mean"] = mf.tensor(np.array([1.5, 2.5, -1.0]))  # float64 into float32
    result = net.load_state_dict(state)
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert net.norm.running_mean is held and held.dtype == mf.float32
    np.testing.assert_array_equal(held.numpy(), np.float32([1.5, 2.5, -1.0]))
    state["norm.scratch"] = mf.zeros(3)  # a non-persistent buffer is no state
    with pytest.raises(RuntimeError, match=r'Unexpected key\(s\) in state_dict: "norm.scratch"'):
        net.load_state_dict(state)
    assert net.load_state_dict(state, strict=False).unexpected_keys == ["norm.scratch"]
    with pytest.raises(RuntimeError, match=r"norm.running_mean has shape \(2,\); the module's buffer"):
        net.load_state_dict(dict(state, **{"norm.running_mean": mf.zeros(2)}), strict=False)


def test_to_casts_floating_parameters_and_buffers_and_keeps_identity():
    net = Net()
    net.norm.register_buffer("count", mf.tensor(np.array([3])))
    weight = net.fc.weight
    assert net.to(mf.float64) is net
    assert net.fc.weight is weight and weight.dtype == mf.float64
    assert net.norm.running_mean.dtype == mf.float64 and net.norm.scratch.dtype == mf.float64
    assert net.norm.count.dtype == mf.int64  # as torch: integer tensors keep their dtype
    net.float()
    assert weight.dtype == mf.float32 and net.norm.running_mean.dtype == mf.float32
    net.to("cpu")
    assert weight.device.type == "cpu"


# ---------------------------------------------------------------------------------------------
# Attributes and traversal

def test_setattr_getattr_delattr_follow_torch():
    net = Net()
    with pytest.raises(TypeError, match=r"cannot assign 'meshflow.Tensor' as parameter 'weight'"):
        net.fc.weight = mf.zeros(2, 3)
    with pytest.raises(TypeError, match=r"cannot assign 'int' as child module 'fc'"):
        net.fc = 3
    net.fc = None  # a module's name takes None
    assert net.fc is None and list(net.children()) == [net.norm]
    del net.fc
    with pytest.raises(AttributeError, match=r"'Net' object has no attribute 'fc'"):
        net.fc
    net.fc = nn.Linear(3, 2)
    assert [n for n, _ in net.named_children()] == ["norm", "fc"]
    del net.norm.running_mean
    assert [n for n, _ in net.named_buffers()] == ["norm.scratch"]
    net.plain = 1
    del net.plain
    assert not hasattr(net, "plain")
    assert "fc" in dir(net)
    with pytest.raises(TypeError, match=r"is not a Module subclass"):
        net.add_module("x", 3)


def test_traversal_prefix_recurse_and_apply():
    net = Net()
    assert [n for n, _ in net.named_parameters(prefix="model")] == ["model.norm.weight", "model.fc.weight",
                                                                    "model.fc.bias"]
    assert list(net.named_parameters(recurse=False)) == []
    assert [n for n, _ in net.fc.named_parameters(recurse=False)] == ["weight", "bias"]
    assert [n for n, _ in net.named_modules()] == ["", "norm", "fc"]
    assert [n for n, _ in net.named_modules(prefix="m")] == ["m", "m.norm", "m.fc"]
    shared = nn.Linear(2, 2)
    seq = nn.Sequential(shared, shared)
    assert len(list(seq.modules())) == 2 and len(list(seq.named_modules(remove_duplicate=False))) == 3
    seen = []
    assert net.apply(lambda m: seen.append(type(m).__name__)) is net
    assert seen == ["Norm", "Linear", "Net"]  # children first, as torch
    assert net.get_submodule("fc") is net.fc and net.get_parameter("fc.bias") is net.fc.bias
    assert net.get_buffer("norm.running_mean") is net.norm.running_mean


def test_train_eval_requires_grad_and_zero_grad():
    net = Net()
    assert net.eval() is net and not net.training and not net.fc.training
    net.train()
    assert net.norm.training
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")
    assert net.requires_grad_(False) is net and not any(p.requires_grad for p in net.parameters())
    net.requires_grad_()
    x = mf.tensor(np.ones((4, 3), np.float32))
    net.fc(net.norm(x)).sum().backward()
    assert net.fc.weight.grad is not None
    net.zero_grad(set_to_none=False)
    np.testing.assert_array_equal(net.fc.weight.grad.numpy(), np.zeros((2, 3)))
    net.zero_grad()
    assert net.fc.weight.grad is None


def test_repr_is_torchs_nested_format():
    model = nn.Sequential(nn.Linear(2, 3), nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.Linear(3, 3)]), nn.Linear(3, 3))
    assert repr(model) == (
        "Sequential(\n"
        "  (0): Linear(in_features=2, out_features=3, bias=True)\n"
        "  (1): ModuleList(\n"
        "    (0-1): 2 x ReLU()\n"
        "    (2): Linear(in_features=3, out_features=3, bias=True)\n"
        "  )\n"
        "  (2): Linear(in_features=3, out_features=3, bias=True)\n"
        ")")

    class WithExtra(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(1, 1)

        def extra_repr(self):
            return "scale=2"
    assert repr(WithExtra()) == "WithExtra(\n  scale=2\n  (fc): Linear(in_features=1, out_features=1, bias=True)\n)"


# ---------------------------------------------------------------------------------------------
# Containers

def test_sequential_indexing_slicing_append_and_ordered_dict():
    a, b, c = nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)
    seq = nn.Sequential(collections.OrderedDict([("first", a), ("act", b)]))
    assert seq.first is a and seq[1] is b and seq[-1] is b and len(seq) == 2
    assert seq.append(c) is seq and seq[2] is c and list(seq._modules) == ["first", "act", "2"]
    head = seq[:2]
    assert isinstance(head, nn.Sequential) and list(head._modules) == ["first", "act"] and head[0] is a
    with pytest.raises(IndexError, match="index 3 is out of range for Sequential of length 3"):
        seq[3]
    x = mf.tensor(np.ones((1, 2), np.float32))
    np.testing.assert_array_equal(seq(x).numpy(), c(b(a(x))).numpy())
    del seq[0]
    assert len(seq) == 2 and seq[0] is b and list(seq._modules) == ["0", "1"]
    seq[0] = nn.Identity()
    assert isinstance(seq[0], nn.Identity)


def test_module_list_and_module_dict():
    layers = nn.ModuleList([nn.Linear(1, 1)])
    layers.extend([nn.ReLU()]).insert(0, nn.Tanh())
    assert [type(m).__name__ for m in layers] == ["Tanh", "Linear", "ReLU"]
    layers += [nn.GELU()]
    assert len(layers) == 4 and isinstance(layers[1:], nn.ModuleList) and len(layers[1:]) == 3
    d = nn.ModuleDict({"enc": nn.Linear(2, 2), "act": nn.ReLU()})
    d["dec"] = nn.Linear(2, 1)
    assert list(d) == ["enc", "act", "dec"] and "act" in d and len(d) == 3
    assert [n for n, _ in d.named_parameters()] == ["enc.weight", "enc.bias", "dec.weight", "dec.bias"]
    assert isinstance(d.pop("act"), nn.ReLU) and list(d.keys()) == ["enc", "dec"]
    assert repr(nn.ModuleDict({"a": nn.ReLU()})) == "ModuleDict(\n  (a): ReLU()\n)"


def test_parameter_list_and_dict_register_parameters():
    plist = nn.ParameterList([mf.zeros(2), nn.Parameter(mf.ones(3))])
    assert all(isinstance(p, nn.Parameter) for p in plist) and len(plist) == 2
    plist.append(mf.zeros(1))
    assert [n for n, _ in plist.named_parameters()] == ["0", "1", "2"]
    pdict = nn.ParameterDict({"scale": mf.ones(2)})
    pdict["shift"] = mf.zeros(2)
    assert list(pdict) == ["scale", "shift"] and isinstance(pdict["shift"], nn.Parameter)

    class Holder(nn.Module):
        def __init__(self):
            super().__init__()
            self.ps = plist
            self.pd = pdict
    assert list(Holder().state_dict()) == ["ps.0", "ps.1", "ps.2", "pd.scale", "pd.shift"]
    assert repr(plist) == ("ParameterList(\n    (0): Parameter containing: [meshflow.float32 of size 2]\n"
                           "    (1): Parameter containing: [meshflow.float32 of size 3]\n"
                           "    (2): Parameter containing: [meshflow.float32 of size 1]\n)")  # torch's
    assert repr(nn.ParameterList([mf.ones(2)])) == "ParameterList(  (0): Parameter containing: [meshflow.float32 " \
                                                   "of size 2])"
    with pytest.raises(RuntimeError, match="ParameterList should not be called"):
        plist()


def test_graph_mode_reads_and_writes_buffers():
    # A buffer updated in forward (as running statistics are) is graph state: each run reads
    # the current value and writes the new one back.
    class Counter(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("calls", mf.zeros(1))

        def forward(self, x):
            self.calls.data = self.calls + 1
            return x + self.calls

    class Run(nn.Graph):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def build(self, x):
            return self.model(x)

    placement = mf.placement("cpu", ranks=[0])
    model = Counter().to_global(placement, mf.sbp.broadcast)
    assert model.calls.is_global
    run = Run(model)
    x = mf.tensor(np.zeros(1, np.float32), placement=placement, sbp=mf.sbp.broadcast)
    assert [run(x).numpy().item() for _ in range(3)] == [1.0, 2.0, 3.0]
    assert model.calls.numpy().item() == 3.0
    model.calls.data = mf.tensor(np.full(1, 10, np.float32), placement=placement, sbp=mf.sbp.broadcast)
    assert run(x).numpy().item() == 11.0  # eager changes between runs are read
