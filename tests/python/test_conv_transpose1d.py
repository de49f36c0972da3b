"""F.conv_transpose1d and nn.ConvTranspose1d against a NumPy reference of torch's definition
(each input element scatters its weighted kernel into the output), with stride, padding,
output_padding, dilation and groups; their gradients by finite differences; the module's
parameters, output_size and unbatched input."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from gradcheck import check_gradients

RNG = np.random.default_rng(37)


def np_conv_transpose1d(x, w, b, stride, padding, output_padding, groups, dilation):
    n, c_in, length = x.shape
    per_group_out, k = w.shape[1], w.shape[2]
    out_len = (length - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1
    full = np.zeros((n, per_group_out * groups, out_len + 2 * padding + k * dilation))
    per_group_in = c_in // groups
    for ci in range(c_in):
        g = ci // per_group_in
        for co in range(per_group_out):
            for i in range(length):
                for kk in range(k):
                    full[:, g * per_group_out + co, i * stride + kk * dilation] += x[:, ci, i] * w[ci, co, kk]
    y = full[:, :, padding:padding + out_len]
    return y if b is None else y + b[None, :, None]


CASES = [dict(stride=1, padding=0, output_padding=0, groups=1, dilation=1),
         dict(stride=2, padding=1, output_padding=1, groups=1, dilation=1),
         dict(stride=3, padding=2, output_padding=0, groups=2, dilation=2)]


@pytest.mark.parametrize("kw", CASES)
def test_matches_numpy_and_finite_differences(kw):
    x, w, b = RNG.standard_normal((2, 4, 5)), RNG.standard_normal((4, 3, 3)), RNG.standard_normal(3 * kw["groups"])
    got = F.conv_transpose1d(mf.tensor(x), mf.tensor(w), mf.tensor(b), **kw)
    np.testing.assert_allclose(got.numpy(), np_conv_transpose1d(x, w, b, **kw), rtol=1e-10, atol=1e-12)
    check_gradients(lambda a, c, d: F.conv_transpose1d(a, c, d, **kw), [x, w, b])


def test_module_parameters_output_size_and_unbatched():
    m = nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1, groups=2).double()
    assert m.weight.shape == (4, 3, 3) and m.bias.shape == (6,)
    assert list(m.state_dict()) == ["weight", "bias"]
    assert m.kernel_size == (3,) and m.stride == (2,) and m.padding == (1,)
    x = RNG.standard_normal((2, 4, 5))
    ref = np_conv_transpose1d(x, m.weight.numpy(), m.bias.numpy(), 2, 1, 0, 2, 1)
    np.testing.assert_allclose(m(mf.tensor(x)).numpy(), ref, rtol=1e-10, atol=1e-12)
    y = m(mf.tensor(x), output_size=[10])
    assert y.shape == (2, 6, 10)
    np.testing.assert_allclose(y.numpy(), np_conv_transpose1d(x, m.weight.numpy(), m.bias.numpy(), 2, 1, 1, 2, 1),
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(m(mf.tensor(x[0])).numpy(), ref[0], rtol=1e-10, atol=1e-12)
    assert "ConvTranspose1d(4, 6, kernel_size=(3,), stride=(2,), padding=(1,), groups=2)" == repr(m)
    with pytest.raises(ValueError, match=r"\[conv_transpose1d\] the weight has shape \(4, 3, 3, 1\)"):
        F.conv_transpose1d(mf.tensor(x), mf.tensor(np.zeros((4, 3, 3, 1))))
