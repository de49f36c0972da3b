"""Fused attention on split layouts equals one device: heads split (tensor parallelism),
batch split (data parallelism), both on a 2-d mesh, forward and gradients; for q, k, v apart
([B, H, T, D], heads on dim 1) and packed (qkv [B, T, H, 3D], heads on dim 2)."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F

S, B = mf.sbp.split, mf.sbp.broadcast
# name: (input shapes, output shape, the heads' dim, the call); 6 heads: uneven on 4 ranks.
FORMS = {
    "separate": ([(4, 6, 9, 8)] * 3, (4, 6, 9, 8), 1,
                 lambda inputs, causal: F.scaled_dot_product_attention(*inputs, is_causal=causal)),
    "packed": ([(4, 9, 6, 24)], (4, 9, 6, 8), 2,
               lambda inputs, causal: F.packed_qkv_attention(inputs[0], is_causal=causal)),
}
# (mesh, ranks, the N-d SBP given the heads' dim)
LAYOUTS = [("2", [0, 1], lambda h: (S(0),)), ("2", [0, 1], lambda h: (S(h),)), ("4", [0, 1, 2, 3], lambda h: (S(h),)),
           ("2x2", [[0, 1], [2, 3]], lambda h: (S(0), S(h))), ("2", [0, 1], lambda h: (B,))]
LAYOUT_IDS = ["2-batch", "2-heads", "4-heads", "2x2-batch-heads", "2-broadcast"]


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("name, ranks, layout_of", LAYOUTS, ids=LAYOUT_IDS)
@pytest.mark.parametrize("form", FORMS)
def test_split_layouts_equal_one_device(form, name, ranks, layout_of, causal, world):
    if np.array(ranks).size > world:
        pytest.skip(f"needs {np.array(ranks).size} ranks")
    shapes, out_shape, heads, attention = FORMS[form]
    sbp = layout_of(heads)
    p = mf.placement("cpu", ranks=ranks)
    rng = np.random.default_rng(5)
    arrays = [rng.standard_normal(s) for s in shapes]
    dy = rng.standard_normal(out_shape)
    outputs = []
    for layout in (None, sbp):
        tensors = [mf.tensor(a, requires_grad=True) if layout is None else
                   mf.tensor(a, placement=p, sbp=layout).requires_grad_(True) for a in arrays]
        y = attention(tensors, causal)
        weight = mf.tensor(dy) if layout is None else mf.tensor(dy, placement=p, sbp=layout)
        (y * weight).sum().backward()
        if layout is not None:
            assert y.sbp == layout and all(t.grad.sbp == layout for t in tensors)
        outputs.append([y.numpy()] + [t.grad.numpy() for t in tensors])
    for got, expected in zip(outputs[1], outputs[0]):
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
