"""Fused attention on split layouts equals one device: heads split (tensor parallelism),
batch split (data parallelism), both on a 2-d mesh, forward and gradients; the same for the
packed form (qkv [B, T, H, 3D], heads on dim 2)."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F

S, B = mf.sbp.split, mf.sbp.broadcast
LAYOUTS = [("2", [0, 1], (S(0),)), ("2", [0, 1], (S(1),)), ("4", [0, 1, 2, 3], (S(1),)),
           ("2x2", [[0, 1], [2, 3]], (S(0), S(1))), ("2", [0, 1], (B,))]


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("name, ranks, sbp", LAYOUTS, ids=[f"{n}{s}" for n, _, s in LAYOUTS])
def test_split_layouts_equal_one_device(name, ranks, sbp, causal, world):
    if np.array(ranks).size > world:
        pytest.skip(f"needs {np.array(ranks).size} ranks")
    p = mf.placement("cpu", ranks=ranks)
    rng = np.random.default_rng(5)
    arrays = [rng.standard_normal((4, 6, 9, 8)) for _ in range(3)]  # 6 heads: uneven on 4 ranks
    dy = rng.standard_normal((4, 6, 9, 8))
    outputs = []
    for layout in (None, sbp):
        tensors = [mf.tensor(a, requires_grad=True) if layout is None else
                   mf.tensor(a, placement=p, sbp=layout).requires_grad_(True) for a in arrays]
        y = F.scaled_dot_product_attention(*tensors, is_causal=causal)
        weight = mf.tensor(dy) if layout is None else mf.tensor(dy, placement=p, sbp=layout)
        (y * weight).sum().backward()
        if layout is not None:
            assert y.sbp == layout and all(t.grad.sbp == layout for t in tensors)
        outputs.append([y.numpy()] + [t.grad.numpy() for t in tensors])
    for got, expected in zip(outputs[1], outputs[0]):
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


PACKED_LAYOUTS = [("2", [0, 1], (S(0),)), ("2", [0, 1], (S(2),)), ("4", [0, 1, 2, 3], (S(2),)),
                  ("2x2", [[0, 1], [2, 3]], (S(0), S(2))), ("2", [0, 1], (B,))]


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("name, ranks, sbp", PACKED_LAYOUTS, ids=[f"{n}{s}" for n, _, s in PACKED_LAYOUTS])
def test_packed_split_layouts_equal_one_device(name, ranks, sbp, causal, world):
    if np.array(ranks).size > world:
        pytest.skip(f"needs {np.array(ranks).size} ranks")
    p = mf.placement("cpu", ranks=ranks)
    rng = np.random.default_rng(6)
    a = rng.standard_normal((4, 9, 6, 24))  # 6 heads: uneven on 4 ranks
    dy = rng.standard_normal((4, 9, 6, 8))
    outputs = []
    for layout in (None, sbp):
        qkv = mf.tensor(a, requires_grad=True) if layout is None else \
            mf.tensor(a, placement=p, sbp=layout).requires_grad_(True)
        y = F.packed_qkv_attention(qkv, is_causal=causal)
        weight = mf.tensor(dy) if layout is None else mf.tensor(dy, placement=p, sbp=layout)
        (y * weight).sum().backward()
        if layout is not None:
            assert y.sbp == layout and qkv.grad.sbp == layout
        outputs.append([y.numpy(), qkv.grad.numpy()])
    for got, expected in zip(outputs[1], outputs[0]):
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
