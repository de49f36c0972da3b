"""Whole programs as PyTorch users write them (issue 37, fourteenth programs round, written
blind): vision (GroupNorm ResNets, pooling variants, interpolation, uint8 augmentation),
text (packed LSTM/GRU, Transformer layers, attention masks, embedding bags, GPT-2 with
sampling), tabular, autoencoders, GANs, RL returns, metrics, schedulers and optimizers with
every argument, checkpoints, in-place idioms, autograd modes and Functions, hooks, einsum,
promotion, printing and exception types. Each program in port_programs14/ is torch's
spelling, run unchanged but for its imports, and must agree with what PyTorch 2 printed for
it (expected.json), as test_port_programs9's. The focused tests below pin each class of defect
the round found."""
import os

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs14"), "s")


def test_norm_layers_take_their_count_from_an_old_or_filtered_state_dict_as_torch_s():
    # torch's _NormBase: a state dict without metadata (a dict comprehension over state_dict(),
    # an old checkpoint) that lacks num_batches_tracked keeps the module's count, not missing it
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2), nn.InstanceNorm1d(2, track_running_stats=True))
    model[1].num_batches_tracked.fill_(7)
    sd = model.state_dict()
    plain = {k: v for k, v in sd.items() if "num_batches" not in k}
    assert model.load_state_dict(plain) is not None and model[1].num_batches_tracked.item() == 7
    assert model.load_state_dict(plain, strict=False).missing_keys == []
    versioned = type(sd)(plain)
    versioned._metadata = sd._metadata  # a current state_dict's: version 2, so the count is missing
    assert model.load_state_dict(versioned, strict=False).missing_keys == ["1.num_batches_tracked",
                                                                           "2.num_batches_tracked"]


def test_printing_names_the_dtype_where_values_cannot_tell_it_as_torch_s(restore_settings):
    assert repr(mf.zeros(0, dtype=mf.int64)) == "tensor([], dtype=meshflow.int64)"
    assert repr(mf.tensor([], dtype=mf.bool)) == "tensor([], dtype=meshflow.bool)"
    assert repr(mf.zeros(0, 2)) == "tensor([], size=(0, 2))"
    assert repr(mf.tensor([1, 2])) == "tensor([1, 2])"
    mf.set_default_dtype(mf.float64)  # the default float prints bare, float32 names itself
    assert repr(mf.ones(2)) == "tensor([1., 1.])"
    assert repr(mf.ones(2, dtype=mf.float32)) == "tensor([1., 1.], dtype=meshflow.float32)"
    assert repr(mf.zeros(1, dtype=mf.complex128)) == "tensor([0.+0.j])"
    assert repr(mf.zeros(0, dtype=mf.float32)) == "tensor([], dtype=meshflow.float32)"


# torch 2's uint8 resizes (its fixed-point kernel, PIL's) of the image below
_IMAGE = [[0, 37, 74, 111, 148, 185], [222, 3, 40, 77, 114, 151], [188, 225, 6, 43, 80, 117],
          [154, 191, 228, 9, 46, 83], [120, 157, 194, 231, 12, 49]]
_TORCH_UINT8_RESIZES = [
    (dict(size=(3, 4), mode="bilinear"), [[62, 54, 109, 165], [197, 61, 52, 108], [140, 196, 123, 51]]),
    (dict(size=(3, 4), mode="bicubic"), [[57, 48, 113, 169], [204, 53, 54, 110], [135, 213, 123, 45]]),
    (dict(size=(7, 4), mode="bicubic", align_corners=True),
     [[0, 60, 125, 185], [156, 20, 105, 165], [238, 16, 80, 138], [188, 73, 57, 117], [167, 200, 0, 96],
      [140, 242, 45, 69], [120, 180, 164, 49]]),
    (dict(size=(3, 4), mode="bilinear", antialias=True), [[68, 51, 104, 156], [181, 96, 57, 103], [149, 188, 108, 50]]),
    (dict(scale_factor=1.5, mode="bilinear"),
     [[0, 19, 43, 68, 93, 117, 142, 167, 185], [111, 66, 26, 51, 76, 100, 125, 150, 168],
      [216, 129, 39, 36, 53, 77, 102, 127, 145], [194, 191, 158, 41, 31, 55, 80, 105, 123],
      [171, 190, 193, 133, 72, 32, 57, 82, 100], [148, 167, 191, 216, 135, 45, 42, 59, 77],
      [126, 145, 169, 194, 197, 164, 47, 37, 55]]),
]


def test_uint8_images_resize_to_uint8_with_torch_s_rounding():
    img = mf.tensor([[_IMAGE]], dtype=mf.uint8)
    for kwargs, want in _TORCH_UINT8_RESIZES:
        got = F.interpolate(img, **kwargs)
        assert got.dtype == mf.uint8 and got[0, 0].tolist() == want, kwargs
    # a downscale rounds after each dim's pass, so it can differ from float's rounded by a unit
    as_float = F.interpolate(img.float(), size=(3, 4), mode="bilinear")
    assert np.abs(as_float.round().numpy() - F.interpolate(img, size=(3, 4), mode="bilinear").numpy()).max() == 1


def test_module_type_casts_every_tensor_as_torch_s():
    bn = nn.BatchNorm1d(2)
    weight = bn.weight
    assert bn.type(mf.float64) is bn and bn.weight is weight
    assert bn.weight.dtype == bn.running_var.dtype == bn.num_batches_tracked.dtype == mf.float64


def test_shape_and_argument_errors_are_torch_s_runtime_errors():
    # each is torch's RuntimeError, and a ValueError as meshflow raised them before
    x = mf.ones(2, 3)
    for refused in (lambda: x.split(0), lambda: x.chunk(0), lambda: x.repeat(2), lambda: x.narrow(1, 2, 5),
                    lambda: x.flatten(1, 0), lambda: x.bmm(x), lambda: x.dot(mf.ones(3)), lambda: x.to("nope"),
                    lambda: mf.zeros(-1), lambda: mf.linspace(0, 1, -1), lambda: mf.einsum("ij,jk->ik", x, x),
                    lambda: mf.einsum("ij->k", x), lambda: x.topk(4), lambda: x.kthvalue(4), lambda: mf.ones(3).fliplr(),
                    lambda: mf.roll(x, (1, 1)), lambda: mf.div(x, 2, rounding_mode="up"), lambda: mf.clamp(x),
                    lambda: mf.tensor([300], dtype=mf.uint8), lambda: F.cross_entropy(x, mf.tensor([0.0, 1.0]))):
        with pytest.raises(RuntimeError) as raised:
            refused()
        assert isinstance(raised.value, ValueError)


def test_mean_and_var_of_integers_raise_torch_s_not_implemented_error():
    for refused in (lambda: mf.ones(2, dtype=mf.int64).mean(), lambda: mf.ones(2, dtype=mf.uint8).mean(0),
                    lambda: mf.ones(2, dtype=mf.int32).var(), lambda: mf.ones(2, dtype=mf.int64).std(0),
                    lambda: mf.tensor([True]).mean()):
        with pytest.raises(NotImplementedError) as raised:  # a RuntimeError, as torch's
            refused()
        assert isinstance(raised.value, ValueError)  # as meshflow raised for small integers before


def test_load_of_a_missing_path_raises_file_not_found_as_torch_s(tmp_path):
    with pytest.raises(FileNotFoundError) as raised:
        mf.load(str(tmp_path / "nothing.pt"))
    assert isinstance(raised.value, ValueError)  # as meshflow raised before
    with pytest.raises(ValueError) as raised:  # something there that is no checkpoint: not a missing file
        mf.load(str(tmp_path))
    assert not isinstance(raised.value, FileNotFoundError)


def test_a_0_d_tensor_is_not_iterable_as_torch_s():
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        list(mf.tensor(1.0))
    assert [r.tolist() for r in mf.tensor([[1, 2], [3, 4]])] == [[1, 2], [3, 4]]
    a, b = mf.arange(2)
    assert (a.item(), b.item()) == (0, 1)


def test_distributions_print_their_parameters_as_torch_s():
    D = mf.distributions
    assert repr(D.Normal(mf.tensor([0.0]), mf.tensor([1.0]))) == "Normal(loc: tensor([0.]), scale: tensor([1.]))"
    assert repr(D.Normal(mf.zeros(3), 1.0)) == "Normal(loc: meshflow.Size([3]), scale: meshflow.Size([3]))"
    assert repr(D.Categorical(probs=mf.tensor([0.5, 0.5]))) == "Categorical(probs: meshflow.Size([2]))"
    assert repr(D.Categorical(logits=mf.zeros(2, 3))) == "Categorical(logits: meshflow.Size([2, 3]))"
    assert repr(D.Bernoulli(logits=mf.tensor(0.3))) == "Bernoulli(logits: 0.30000001192092896)"
    assert repr(D.Beta(2.0, 3.0)) == "Beta()" and repr(D.HalfNormal(1.0)) == "HalfNormal()"  # torch's wrap a family
    assert repr(D.Independent(D.Normal(mf.zeros(2), 1.0), 1)) == \
        "Independent(Normal(loc: meshflow.Size([2]), scale: meshflow.Size([2])), 1)"


def test_reprs_of_optimizer_groups_and_1_d_adaptive_max_pool_as_torch_s():
    w, b = nn.Parameter(mf.ones(1)), nn.Parameter(mf.ones(1))
    text = repr(mf.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=0.1))
    assert "    weight_decay: 0\n\nParameter Group 1\n" in text and text.endswith("    weight_decay: 0\n)")
    assert repr(nn.AdaptiveMaxPool1d(4)) == "AdaptiveMaxPool1d(output_size=4)"


def test_addmm_family_under_autocast_returns_the_lower_precision_as_torch_s():
    x = mf.ones(2, 3)
    with mf.autocast("cpu", dtype=mf.bfloat16):
        made = [mf.baddbmm(x[None, :, :2], x[None], x.T[None]), mf.addbmm(x[:, :2], x[None], x.T[None]),
                mf.addmm(x[:, :2], x, x.T, beta=0.5), mf.addmm(x[:, :2], x, x.T)]
        kept = mf.addmv(x[:, 0], x, x[0])  # not on torch's lower-precision list
    assert [t.dtype for t in made] == [mf.bfloat16] * 4 and kept.dtype == mf.float32
    assert made[0].tolist() == [[[4.0, 4.0], [4.0, 4.0]]] and made[2].tolist() == [[3.5, 3.5], [3.5, 3.5]]


def test_index_and_squeeze_nodes_are_named_as_torch_s():
    x = mf.ones(2, 3, 4, requires_grad=True)
    # torch applies the items in order, skipping whole-dim slices: the last picking item names the node
    names = [x[:, 0], x[1:, 0], x[0, 1:], x[0], x[..., 0], x[0, ...], x[:, 1, 1:3]]
    assert [t.grad_fn.name() for t in names] == ["SelectBackward0", "SelectBackward0", "SliceBackward0",
                                                 "SelectBackward0", "SelectBackward0", "SelectBackward0",
                                                 "SliceBackward0"]
    y = x.squeeze()  # nothing to squeeze: still a view of its own, as torch's
    assert y is not x and y.grad_fn.name() == "SqueezeBackward0"
    z = mf.zeros(2, 3)
    z.squeeze().add_(1)
    assert z.sum().item() == 6.0


def test_adagrad_holds_its_state_from_construction_as_torch_s():
    p = nn.Parameter(mf.ones(2))
    opt = mf.optim.Adagrad([p], initial_accumulator_value=0.5)
    state = opt.state_dict()["state"]
    assert list(state) == [0] and state[0]["step"].item() == 0.0 and state[0]["sum"].tolist() == [0.5, 0.5]
    p.grad = mf.ones(2)
    opt.step()
    assert opt.state[p]["step"].item() == 1.0 and opt.state[p]["sum"].tolist() == [1.5, 1.5]
    assert np.allclose(p.detach().numpy(), 1 - 0.01 / np.sqrt(1.5))  # torch's 0.9918


def test_saved_state_dicts_load_as_ordered_dicts_with_their_metadata_as_torch_s(tmp_path):
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    for path in (str(tmp_path / "one.pt"), str(tmp_path / "directory")):
        mf.save({"model": model.state_dict(), "half": mf.float16}, path)
        loaded = mf.load(path)
        sd = loaded["model"]
        assert type(sd).__name__ == "OrderedDict" and list(sd) == list(model.state_dict())
        assert sd._metadata["1"]["version"] == 2 and loaded["half"] == mf.float16
        del sd["1.num_batches_tracked"]  # a current state_dict's version: the count is missing, as torch's
        assert model.load_state_dict(sd, strict=False).missing_keys == ["1.num_batches_tracked"]


def test_stack_dataset_pairs_datasets_sample_by_sample_as_torch_s():
    from meshflow.utils.data import DataLoader, StackDataset
    named = StackDataset(a=[1, 2, 3], b=mf.arange(3.0))
    assert len(named) == 3 and named[1]["a"] == 2 and named[1]["b"].item() == 1.0
    batch = next(iter(DataLoader(named, batch_size=2)))
    assert batch["a"].tolist() == [1, 2] and batch["b"].tolist() == [0.0, 1.0]
    assert StackDataset([1, 2], ["x", "y"])[0] == (1, "x")
    with pytest.raises(ValueError, match="Size mismatch"):
        StackDataset([1], [1, 2])
