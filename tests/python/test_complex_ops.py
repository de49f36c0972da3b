"""Complex tensors beyond test_complex_fft.py: .real, .imag, view_as_real and view_as_complex
are views (writes through them reach the tensor, writes to it show in them, autograd records
them as torch's; graph mode equals eager), the elementwise math of complex values (log sqrt
rsqrt sin cos tan sinh cosh tanh sigmoid reciprocal log1p pow sgn isnan isinf isfinite) against
NumPy, indexing, selection and scans of complex tensors, and the gradients of all of these
against the values torch 2.x gives (written out below: the tests do not need torch)."""
import numpy as np
import pytest

import meshflow as mf
from test_complex_fft import close, cplx, sig, weights  # the inputs and weights of its gradient cases


# ---------------------------------------------------------------------------------------------
# Views.

def test_writes_through_real_imag_and_the_reinterpreting_views_reach_the_tensor():
    x = mf.tensor([1 + 2j, 3 - 1j])
    x.real.mul_(2)
    assert x.numpy().tolist() == [2 + 2j, 6 - 1j]
    x.imag[...] = 0
    assert x.numpy().tolist() == [2 + 0j, 6 + 0j]
    x.imag[1] = 5
    assert x.numpy().tolist() == [2 + 0j, 6 + 5j]
    mf.view_as_real(x)[..., 0] += 1
    assert x.numpy().tolist() == [3 + 0j, 7 + 5j]
    mf.real(x).fill_(-1)
    mf.imag(x).copy_(mf.tensor([4.0, 8.0]))
    assert x.numpy().tolist() == [-1 + 4j, -1 + 8j]
    f = mf.tensor([[1.0, 2.0], [3.0, 4.0]])
    mf.view_as_complex(f).mul_(1j)
    assert f.numpy().tolist() == [[-2.0, 1.0], [-4.0, 3.0]]
    x.imag = mf.tensor([1.0, 2.0])
    x.real = 0
    assert x.numpy().tolist() == [1j, 2j]
    assert x.real.dtype == mf.float32 and mf.view_as_real(x).shape == (2, 2)


def test_writes_to_the_tensor_show_in_its_views():
    x = mf.tensor([1 + 2j, 3 - 1j], dtype=mf.complex128)
    re, im, pairs = x.real, x.imag, mf.view_as_real(x)
    x.mul_(2)
    x[0] = 5j
    assert re.numpy().tolist() == [0.0, 6.0] and im.numpy().tolist() == [5.0, -2.0]
    assert pairs.numpy().tolist() == [[0.0, 5.0], [6.0, -2.0]]
    re.add_(1)  # one view's write shows in the others
    assert pairs.numpy().tolist() == [[1.0, 5.0], [7.0, -2.0]] and x.numpy().tolist() == [1 + 5j, 7 - 2j]


def test_a_write_through_a_view_of_a_leaf_is_refused_as_torch():
    x = mf.tensor([1 + 2j], requires_grad=True)
    with pytest.raises(RuntimeError, match="view of a leaf Variable"):
        x.real.mul_(2)
    with mf.no_grad():
        x.imag.zero_()
    assert x.detach().numpy().tolist() == [1 + 0j]


class _Graph(mf.nn.Graph):
    def __init__(self, module):
        super().__init__()
        self.m = module

    def build(self, x):
        return self.m(x)


def compiled(module):
    """module(x) as a compiled step (mf.nn.Graph)."""
    return _Graph(module)


def test_graph_mode_writes_through_views_as_eager():
    class M(mf.nn.Module):
        def forward(self, x):
            y = x * 1
            y.imag.mul_(3)
            y.real[0] = 2.0
            mf.view_as_real(y)[..., 1] += 1
            return mf.view_as_real(y).sum(-1) + y.abs()

    x = mf.tensor(cplx(6), dtype=mf.complex64)
    eager = M()(x).numpy()
    np.testing.assert_allclose(compiled(M())(x).numpy(), eager, rtol=1e-6)
    y = cplx(6).real + 3j * cplx(6).imag
    y[0] = 2 + 1j * y[0].imag
    y = y + 1j
    np.testing.assert_allclose(eager, y.real + y.imag + np.abs(y), rtol=1e-5)


def test_graph_mode_runs_complex_math_as_eager():
    class M(mf.nn.Module):
        def forward(self, x):  # a chain of elementwise ops (fused in graph mode)
            y = (x.sin() * x.sigmoid() + x.log() ** 2 - x.sqrt().reciprocal()).tanh()
            return mf.where(y.real > 0, y, y.conj()).cumsum(-1)

    x = mf.tensor(cplx(24).reshape(4, 6), dtype=mf.complex64)
    np.testing.assert_allclose(compiled(M())(x).numpy(), M()(x).numpy(), rtol=1e-6, atol=1e-6)


# ---------------------------------------------------------------------------------------------
# Elementwise math against NumPy (complex128: NumPy's principal branches are torch's).

def sigmoid(z):
    return 1 / (1 + np.exp(-z))


MATH = {
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "asinh": np.arcsinh, "acosh": np.arccosh,
    "atanh": np.arctanh, "log2": np.log2, "log10": np.log10, "expm1": np.expm1, "exp2": np.exp2,
    "log": np.log, "sqrt": np.sqrt, "rsqrt": lambda z: 1 / np.sqrt(z), "exp": np.exp, "sin": np.sin, "cos": np.cos,
    "tan": np.tan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "sigmoid": sigmoid,
    "reciprocal": lambda z: 1 / z, "log1p": np.log1p, "sgn": lambda z: np.where(z == 0, 0, z / np.where(z == 0, 1, abs(z))),
}


ENTIRE = {"exp", "sin", "cos", "tan", "sinh", "cosh", "tanh", "sigmoid", "sgn", "asin", "atan", "asinh", "atanh",
          "expm1", "exp2"}  # defined at 0 too


@pytest.mark.parametrize("dtype", [mf.complex64, mf.complex128])
@pytest.mark.parametrize("name", sorted(MATH))
def test_elementwise_math_matches_numpy(name, dtype):
    z = np.concatenate([cplx(7), [-2.0 + 0j, -0.5 - 0.0j, 3j], [0j] if name in ENTIRE else []])
    expected = MATH[name](z)
    t = mf.tensor(z, dtype=dtype)
    out = getattr(t, name)()
    assert out.dtype == dtype
    tol = 1e-5 if dtype == mf.complex64 else 1e-12
    np.testing.assert_allclose(out.numpy(), expected, rtol=tol, atol=tol)
    np.testing.assert_allclose(getattr(mf, name)(t).numpy(), expected, rtol=tol, atol=tol)


def test_powers_match_numpy():
    a, b = cplx(6), cplx(6)[::-1] * 0.5
    ta, tb = mf.tensor(a, dtype=mf.complex128), mf.tensor(b, dtype=mf.complex128)
    close(ta ** tb, a ** b, rtol=1e-12, atol=1e-12)
    close(mf.pow(ta, tb), a ** b, rtol=1e-12, atol=1e-12)
    for s in (2, 3, 0.5, -1, -1.5, 0):
        close(ta ** s, a ** s, rtol=1e-12, atol=1e-12)
    close(2 ** ta, 2 ** a, rtol=1e-12, atol=1e-12)
    close(ta ** 1j, a ** 1j, rtol=1e-12, atol=1e-12)
    close(ta ** mf.tensor(sig(6)), a ** sig(6), rtol=1e-6)  # float32 exponents promote to complex128
    assert (mf.tensor([1 + 1j]) ** 2).dtype == mf.complex64
    close((0.5 + 1j) ** ta, (0.5 + 1j) ** a, rtol=1e-12, atol=1e-12)
    assert mf.float_power(mf.tensor([1 + 1j]), 2).dtype == mf.complex128  # torch's (it was float64: the parts lost)
    close(mf.float_power(mf.tensor([2.0]), 1j), 2.0 ** np.array([1j]), rtol=1e-12, atol=1e-12)


def test_predicates_and_closeness():
    z = mf.tensor([1 + 1j, complex(float("nan"), 0), complex(0, float("inf")), complex(float("-inf"), float("nan"))])
    assert z.isnan().numpy().tolist() == [False, True, False, True]
    assert z.isinf().numpy().tolist() == [False, False, True, True]
    assert z.isfinite().numpy().tolist() == [True, False, False, False]
    a = mf.tensor(cplx(5))
    assert mf.allclose(a, a + 1e-7j) and not mf.allclose(a, a + 1e-3j)
    assert mf.isclose(a, a * (1 + 1e-3j), rtol=1e-2).numpy().all()


def test_sign_refuses_complex_and_floor_ceil_too():
    z = mf.tensor([1 + 1j])
    with pytest.raises(RuntimeError, match="sgn"):
        z.sign()
    for name in ("floor", "ceil"):
        with pytest.raises(RuntimeError, match="complex"):
            getattr(z, name)()


# ---------------------------------------------------------------------------------------------
# Indexing, selection, scans.

def test_indexing_selection_and_scans_of_complex():
    z = cplx(6)
    t = mf.tensor(z, dtype=mf.complex128)
    assert t[2].item() == z[2] and t[1:4].numpy().tolist() == z[1:4].tolist()
    assert t[mf.tensor([4, 0, 4])].numpy().tolist() == z[[4, 0, 4]].tolist()
    mask = z.real > 0
    assert t[mf.tensor(mask)].numpy().tolist() == z[mask].tolist()
    m = t.reshape(2, 3)
    assert m.index_select(1, mf.tensor([2, 0])).numpy().tolist() == z.reshape(2, 3)[:, [2, 0]].tolist()
    assert m.gather(1, mf.tensor([[2, 2], [0, 1]])).numpy().tolist() == [[z[2], z[2]], [z[3], z[4]]]
    assert mf.where(mf.tensor(mask), t, 0).numpy().tolist() == np.where(mask, z, 0).tolist()
    assert t.masked_fill(mf.tensor(mask), 1 - 2j).numpy().tolist() == np.where(mask, 1 - 2j, z).tolist()
    assert m.flip(1).numpy().tolist() == z.reshape(2, 3)[:, ::-1].tolist()
    assert t.roll(2).numpy().tolist() == np.roll(z, 2).tolist()
    np.testing.assert_allclose(t.cumsum(0).numpy(), np.cumsum(z), rtol=1e-12)
    assert t.cumsum(0).dtype == mf.complex128
    s = mf.zeros(6, dtype=mf.complex128).scatter(0, mf.tensor([5, 0]), t[:2])
    assert s.numpy().tolist() == [z[1], 0, 0, 0, 0, z[0]]
    u = t.clone()
    u[1] = 2j
    u[mf.tensor([3, 4])] = mf.tensor([1j, -1j], dtype=mf.complex128)
    u[u.real < -0.3] = 7
    expected = z.copy()
    expected[1], expected[3], expected[4] = 2j, 1j, -1j
    expected[expected.real < -0.3] = 7
    assert u.numpy().tolist() == expected.tolist()
    assert mf.full((2,), 1 - 1j).dtype == mf.complex64 and mf.full((2,), 1j).numpy().tolist() == [1j, 1j]
    assert mf.full((1,), 2j, dtype=mf.complex128).dtype == mf.complex128
    assert mf.zeros(2, dtype=mf.cfloat).index_fill(0, mf.tensor([1]), 3j).numpy().tolist() == [0j, 3j]


def test_reductions_and_statistics_of_complex_as_torch():
    z = mf.tensor([1 + 1j, -2 + 0j, 0.5 - 2j], dtype=mf.complex128)
    assert z.prod().item() == -5 + 3j
    np.testing.assert_allclose(mf.tensor(cplx(6).reshape(2, 3)).prod(0).numpy(), cplx(6).reshape(2, 3).prod(0),
                               rtol=1e-6)
    # torch 2.x's values
    assert abs(mf.logsumexp(z, 0).item() - (0.19051750869959316 + 0.7094982480272641j)) < 1e-12
    var, std = z.var(), z.std()
    assert var.dtype == std.dtype == mf.float64
    np.testing.assert_allclose([var.item(), std.item(), z.var(0, correction=0).item()],
                               [4.916666666666667, 2.217355782608345, 3.2777777777777777], rtol=1e-12)
    v, mean = mf.var_mean(z)
    assert v.dtype == mf.float64 and mean.dtype == mf.complex128
    m = mf.tensor([[1 + 1j, 2 - 1j, 0j], [1, 2, 3j]], dtype=mf.complex128)
    np.testing.assert_allclose(mf.cov(m).numpy(), [[2, 1 + 1j], [1 - 1j, 4]], rtol=1e-12)
    r = 0.35355339059327373
    np.testing.assert_allclose(mf.corrcoef(m).numpy(), [[1, r + r * 1j], [r - r * 1j, 1]], rtol=1e-12)
    weighted = mf.cov(m, fweights=mf.tensor([1, 2, 1]), aweights=mf.tensor([0.5, 1.0, 2.0]))
    np.testing.assert_allclose(weighted.numpy(), [[1.9285713957280533, 1.9285713957280533 + 1.2857142638187022j],
                                                  [1.9285713957280533 - 1.2857142638187022j, 4.499999923365458]],
                               rtol=1e-6)
    nan, inf = float("nan"), float("inf")
    assert mf.nan_to_num(mf.tensor([complex(nan, 1), complex(inf, -inf)], dtype=mf.complex128),
                         posinf=7.0).numpy().tolist() == [1j, 7 - 1.7976931348623157e+308j]


def test_conjugate_transposes_and_resolve_conj():
    z = cplx(6).reshape(2, 3)
    t = mf.tensor(z)
    assert t.H.numpy().tolist() == z.conj().T.tolist() and t.mH.numpy().tolist() == z.conj().T.tolist()
    assert t.adjoint().numpy().tolist() == z.conj().T.tolist()
    assert t.conj().resolve_conj().numpy().tolist() == z.conj().tolist() and not t.is_conj()
    r = mf.tensor(sig(6).reshape(2, 3))
    assert r.H.numpy().tolist() == sig(6).reshape(2, 3).T.tolist()


# ---------------------------------------------------------------------------------------------
# Gradients against torch 2.x's (the conjugate Wirtinger convention), complex128 inputs.

def cases(L=mf):
    """name -> (input values, f(x)) with L the library (torch or meshflow)."""
    c = lambda v: L.tensor(v, dtype=L.complex128)
    def write_imag(x):
        y = x * 1
        y.imag.mul_(3)
        return y
    def write_real_index(x):
        y = x * 1
        y.real[1:3] = y.imag[1:3] * 2
        return y
    def write_view_as_real(x):
        y = x * 1
        L.view_as_real(y)[..., 0] += x.abs()
        return y
    def setitem_mask(x):
        y = x * 1
        y[x.abs() > 1] = 0.5j
        return y
    return {
        "log": (cplx(6), lambda x: x.log()),
        "sqrt": (cplx(6), lambda x: x.sqrt()),
        "rsqrt": (cplx(6), lambda x: x.rsqrt()),
        "sin": (cplx(6), lambda x: x.sin()),
        "cos": (cplx(6), lambda x: x.cos()),
        "tan": (cplx(6) * 0.5, lambda x: x.tan()),
        "sinh": (cplx(6), lambda x: x.sinh()),
        "cosh": (cplx(6), lambda x: x.cosh()),
        "tanh": (cplx(6) * 0.5, lambda x: x.tanh()),
        "sigmoid": (cplx(6), lambda x: x.sigmoid()),
        "reciprocal": (cplx(6), lambda x: x.reciprocal()),
        "log1p": (cplx(6), lambda x: x.log1p()),
        "pow_base": (cplx(6), lambda x: x ** c(cplx(6)[::-1].copy() * 0.5)),
        "pow_exponent": (cplx(6) * 0.5, lambda x: c(cplx(6)[::-1].copy()) ** x),
        "pow_2": (cplx(6), lambda x: x ** 2),
        "pow_half": (cplx(6), lambda x: x ** 0.5),
        "pow_m15": (cplx(6), lambda x: x.pow(-1.5)),
        "rpow": (cplx(6) * 0.5, lambda x: 2 ** x),
        "rpow_complex": (cplx(6) * 0.5, lambda x: (0.5 + 1j) ** x),
        "float_power": (cplx(6), lambda x: L.float_power(x, 2)),
        "sgn": (cplx(6), lambda x: x.sgn()),
        "index": (cplx(6), lambda x: x[L.tensor([4, 1, 1, 0])]),
        "index_select": (cplx(6).reshape(2, 3), lambda x: x.index_select(1, L.tensor([2, 0, 2]))),
        "gather": (cplx(6).reshape(2, 3), lambda x: x.gather(1, L.tensor([[2, 2], [0, 1]]))),
        "mask": (cplx(6), lambda x: x[x.real > 0]),
        "masked_fill": (cplx(6), lambda x: x.masked_fill(x.real > 0, 2 - 1j)),
        "where": (cplx(6), lambda x: L.where(x.real > 0, x, x * 1j)),
        "cumsum": (cplx(6), lambda x: x.cumsum(0)),
        "flip": (cplx(6).reshape(2, 3), lambda x: x.flip(1)),
        "cat": (cplx(6), lambda x: L.cat([x, x * 2j])),
        "prod_like_mul": (cplx(6), lambda x: x * x.sin()),
        "write_imag": (cplx(6), write_imag),
        "write_real_index": (cplx(6), write_real_index),
        "write_view_as_real": (cplx(6), write_view_as_real),
        "setitem_mask": (cplx(6), setitem_mask),
        "H": (cplx(6).reshape(2, 3), lambda x: x.H),
        "mH": (cplx(6).reshape(2, 3), lambda x: x.mH),
        "vector_norm": (cplx(6), lambda x: L.linalg.vector_norm(x).reshape(1)),
        "asin": (cplx(6) * 0.5, lambda x: x.asin()),
        "acos": (cplx(6) * 0.5, lambda x: x.acos()),
        "atan": (cplx(6) * 0.5, lambda x: x.atan()),
        "asinh": (cplx(6) * 0.5, lambda x: x.asinh()),
        "acosh": (cplx(6) * 0.5, lambda x: x.acosh()),
        "atanh": (cplx(6) * 0.5, lambda x: x.atanh()),
        "log2": (cplx(6), lambda x: x.log2()),
        "log10": (cplx(6), lambda x: x.log10()),
        "expm1": (cplx(6) * 0.5, lambda x: x.expm1()),
        "exp2": (cplx(6) * 0.5, lambda x: x.exp2()),
        "prod": (cplx(6).reshape(2, 3), lambda x: x.prod(1)),
        "prod_all": (cplx(6) * 0.5, lambda x: x.prod().reshape(1)),
        "var": (cplx(6).reshape(2, 3), lambda x: x.var(1)),
        "std": (cplx(6).reshape(2, 3), lambda x: x.std(0, correction=0)),
        "logsumexp": (cplx(6).reshape(2, 3), lambda x: x.logsumexp(1)),
    }

def loss(y):
    shape = tuple(y.shape)
    a = mf.tensor(weights(shape), dtype=mf.float64)
    if not y.is_complex():
        return (y * a).sum()
    b = mf.tensor(weights(shape, 0.53), dtype=mf.float64)
    return (y.real * a + y.imag * b).sum()


# torch 2.x's x.grad for each case (shape, values), from the same inputs and losses.
TORCH_GRADS = {
    "log": ([6], [3.3634116231j, (-0.0218971099+0.8264166542j), (0.4076815498+0.4576066658j), (0.1932925633-0.2533783296j), (-0.5820129628-1.1028292013j), (0.8551334473-0.2537343412j)]),
    "sqrt": ([6], [(0.4160454487+1.0044225647j), (0.1956879402+0.457018325j), (0.2646696767+0.2177574401j), (0.1372672786-0.1019699204j), (-0.1117166843-0.42255637j), (0.2044441678-0.4263670615j)]),
    "rsqrt": ([6], [(0.995493883-2.4033348336j), (0.1518195786-0.3083289715j), (-0.1485827315-0.2301884479j), (-0.0538995755+0.1383573578j), (0.5815889043+0.672919624j), (-0.3593261098-0.2187220945j)]),
    "sin": ([6], [(0.9058956424+1.0794896609j), (0.0057025736+1.7422822194j), (0.1208750967+0.3940097912j), (0.1605014285-0.2714610523j), (-0.0746470738-0.5648760687j), (-0.7801708678-1.5039758917j)]),
    "cos": ([6], [(-0.5873188722-0.0171010082j), (-1.823963819-0.3846125482j), (-0.7143547276-0.2937862049j), (-0.3865556034+0.0018289108j), (-0.111931539+0.2716397696j), (1.1887601474-0.6908032295j)]),
    "tan": ([6], [(1.0360642742+0.949322405j), (1.0310974234+0.2490405583j), (1.0208584704+0.2938513637j), (0.4180180342-0.0193842442j), (0.0107206146-0.6357750637j), (-0.2427401837-0.7056428217j)]),
    "sinh": ([6], [(1.0794896609+0.9058956424j), (1.3724790632-0.3191957134j), (1.3184090956+0.2849634019j), (0.5102417593+0.0649184199j), (0.0391515673-0.6594639565j), (-0.0733081969-0.4464054194j)]),
    "cosh": ([6], [(0.5873188722-0.0171010082j), (1.4935803082-0.7696568388j), (1.1763233213+0.1004866628j), (0.43211676+0.1791204562j), (0.1354806463-0.2773852698j), (-0.8213843443+0.3888966883j)]),
    "tanh": ([6], [(0.949322405+1.0360642742j), (0.378815476+1.1785439733j), (0.4157024286+0.3787556114j), (0.2518327885-0.1885596955j), (-0.0462175031-0.5885621859j), (-0.6143578669-1.2461655335j)]),
    "sigmoid": ([6], [(0.2373306013+0.2590160686j), (0.094703869+0.2946359933j), (0.1039256071+0.0946889029j), (0.0629581971-0.0471399239j), (-0.0115543758-0.1471405465j), (-0.1535894667-0.3115413834j)]),
    "reciprocal": ([6], [(5.6906626811-5.6906626811j), (0.4435931714-0.3603311814j), (-0.199151815-0.447611693j), (-0.0252251278+0.2755808148j), (2.0489842543+1.4969100033j), (-0.1489049716-0.7794371529j)]),
    "log1p": ([6], [(0.5629231448+0.895633473j), (0.169064804+0.508774452j), (0.2623093101+0.2235677766j), (0.1402789656-0.1086889207j), (-0.0751900851-0.4136253595j), (0.343674253-0.6121518394j)]),
    "pow_base": ([6], [(1.1617026104+0.5358187062j), (-0.0784149805+0.2287801772j), (0.1068825821+0.4192682049j), (0.145906912-0.1920977508j), (-0.5608782493-0.6096703331j), (0.0341877877-0.1441638747j)]),
    "pow_exponent": ([6], [(1.0428369315-1.5535196956j), (-0.6648060531-0.6449923182j), (-0.3001678091+0.4442896449j), (0.0317475283-0.1688056031j), (-0.6673306523-0.1511369501j), (-0.6122284731+0.5095717294j)]),
    "pow_2": ([6], [(1.1749364459+0j), (3.4319600496-0.4379809883j), (1.8699379308+0.4274858215j), (0.8281621201+0.1693333899j), (0.2471826174-0.5492066011j), (-1.9911835563+1.0564475825j)]),
    "pow_half": ([6], [(0.4160454487+1.0044225647j), (0.1956879402+0.457018325j), (0.2646696767+0.2177574401j), (0.1372672786-0.1019699204j), (-0.1117166843-0.42255637j), (0.2044441678-0.4263670615j)]),
    "pow_m15": ([6], [(17.2517579508-7.145912118j), (0.6903966477-0.1771272798j), (-0.1714823093-0.6342646557j), (0.0726427523+0.3799288027j), (4.9930072015+2.1335087419j), (0.676278147-0.8961499449j)]),
    "rpow": ([6], [(0.8372971431+0.6812247857j), (1.0772780597+0.3988054256j), (0.7391373001+0.3142332259j), (0.3528893231-0.0520969194j), (0.0214712416-0.4945288456j), (-0.4681613464-0.4772752151j)]),
    "rpow_complex": ([6], [(0.8757443303-1.0276591177j), (0.1912607246-0.7392501996j), (-0.0343912709-0.7377552707j), (-0.418708824-0.4369158665j), (-0.7770183291+0.1280471751j), (-0.5723373414+0.1696465506j)]),
    "float_power": ([6], [(1.1749364459+0j), (3.4319600496-0.4379809883j), (1.8699379308+0.4274858215j), (0.8281621201+0.1693333899j), (0.2471826174-0.5492066011j), (-1.9911835563+1.0564475825j)]),
    "sgn": ([6], [0j, (0.0794552178-0.0681128341j), (-0.0415545555+0.1301092672j), (0.0339332387+0.0540760742j), (-0.4989613384-1.0218038807j), (-0.4159811228-0.0416015629j)]),
    "index": ([6], [(0.3436457463-0.1288444943j), (1.5469780687+1.1922474422j), 0j, 0j, (0.993956098+0.993956098j), 0j]),
    "index_select": ([2, 3], [(0.8869949228+0.8020957579j), 0j, (1.6539392438+1.3841077823j), (-0.0192024929-0.6124875657j), 0j, (-0.0358060185-1.0569172045j)]),
    "gather": ([2, 3], [0j, 0j, (1.8809510207+1.7960518558j), (0.6599831459+0.3901516843j), (0.3436457463-0.1288444943j), 0j]),
    "mask": ([6], [(0.993956098+0.993956098j), (0.8869949228+0.8020957579j), (0.6599831459+0.3901516843j), (0.3436457463-0.1288444943j), (-0.0192024929-0.6124875657j), 0j]),
    "masked_fill": ([6], [0j, 0j, 0j, 0j, 0j, (-0.3794517648-0.9280727102j)]),
    "where": ([6], [(0.993956098+0.993956098j), (0.8869949228+0.8020957579j), (0.6599831459+0.3901516843j), (0.3436457463-0.1288444943j), (-0.0192024929-0.6124875657j), (-0.9280727102+0.3794517648j)]),
    "cumsum": ([6], [(2.4859256552+0.51679877j), (1.4919695573-0.477157328j), (0.6049746345-1.2792530859j), (-0.0550085114-1.6694047702j), (-0.3986542577-1.5405602759j), (-0.3794517648-0.9280727102j)]),
    "flip": ([2, 3], [(0.6599831459+0.3901516843j), (0.8869949228+0.8020957579j), (0.993956098+0.993956098j), (-0.3794517648-0.9280727102j), (-0.0192024929-0.6124875657j), (0.3436457463-0.1288444943j)]),
    "cat": ([6], [(-0.984059556+2.3706441388j), (-0.6701514405+2.6102400419j), (-0.0490349842+2.3850283651j), (0.677300398+1.7827673829j), (1.2655748224+0.9571318082j), (1.5039234869+0.0871135414j)]),
    "prod_like_mul": ([6], [(1.1740403473+0.0684015484j), (3.7427905449+2.0186578652j), (1.0083559828+0.7173091974j), (0.7092834604-0.1683842891j), (0.2007731209-0.5371742746j), (-2.7836680516+1.7316450941j)]),
    "write_imag": ([6], [(0.993956098+2.9818682939j), (0.8869949228+2.4062872737j), (0.6599831459+1.1704550529j), (0.3436457463-0.3865334829j), (-0.0192024929-1.837462697j), (-0.3794517648-2.7842181306j)]),
    "write_real_index": ([6], [(0.993956098+0.993956098j), 2.5760856034j, 1.7101179761j, (0.3436457463-0.1288444943j), (-0.0192024929-0.6124875657j), (-0.3794517648-0.9280727102j)]),
    "write_view_as_real": ([6], [(1.696789195+1.696789195j), (1.4642844203+1.4755174899j), (1.2886797176+0.5909460408j), (0.6347280095-0.3115013174j), (-0.0364576232-0.6040616406j), (-0.341691802-1.305641018j)]),
    "setitem_mask": ([6], [(0.993956098+0.993956098j), 0j, 0j, 0j, (-0.0192024929-0.6124875657j), 0j]),
    "H": ([2, 3], [(0.993956098-0.993956098j), (0.6599831459-0.3901516843j), (-0.0192024929+0.6124875657j), (0.8869949228-0.8020957579j), (0.3436457463+0.1288444943j), (-0.3794517648+0.9280727102j)]),
    "mH": ([2, 3], [(0.993956098-0.993956098j), (0.6599831459-0.3901516843j), (-0.0192024929+0.6124875657j), (0.8869949228-0.8020957579j), (0.3436457463+0.1288444943j), (-0.3794517648+0.9280727102j)]),
    "vector_norm": ([6], [(0.113791279+0.113791279j), (0.3625173004+0.4228849293j), (0.4588554688+0.1465501686j), (0.3756061361-0.2356963383j), (0.1700324622-0.0830292647j), (-0.043071344+0.4306777142j)]),
    "asin": ([6], [(1.0149216519+0.9715711142j), (0.9527896383+0.535380937j), (0.8425409687+0.329904702j), (0.3784947669-0.0731396315j), (-0.004143539-0.6240951519j), (-0.3119517517-0.8181921136j)]),
    "acos": ([6], [(-1.0149216519-0.9715711142j), (-0.9527896383-0.535380937j), (-0.8425409687-0.329904702j), (-0.3784947669+0.0731396315j), (0.004143539+0.6240951519j), (0.3119517517+0.8181921136j)]),
    "atan": ([6], [(0.9487449168+1.0353840848j), (0.3604080844+1.074306805j), (0.4366599845+0.3709225786j), (0.2536827677-0.1787960867j), (-0.045528916-0.5884733262j), (-0.6659721372-1.2839572883j)]),
    "asinh": ([6], [(0.9715711142+1.0149216519j), (0.6376085535+0.9739411982j), (0.5397822852+0.3845682696j), (0.2983654216-0.1577396973j), (-0.0326268298-0.600518806j), (-0.5056311219-1.0929612294j)]),
    "acosh": ([6], [(-0.9715711142+1.0149216519j), (-0.535380937+0.9527896383j), (-0.329904702+0.8425409687j), (-0.0731396315-0.3784947669j), (-0.6240951519+0.004143539j), (0.8181921136-0.3119517517j)]),
    "atanh": ([6], [(1.0353840848+0.9487449168j), (0.9574640231+0.2843680171j), (1.0438429501+0.2252472207j), (0.404811493-0.009335787j), (0.0114809288-0.6355347424j), (-0.2553085654-0.7208505515j)]),
    "log2": ([6], [4.8523772692j, (-0.0315908519+1.1922672087j), (0.5881601501+0.6601868674j), (0.2788622225-0.3655476595j), (-0.8396672151-1.5910462196j), (1.2336967836-0.3660612758j)]),
    "log10": ([6], [1.4607111083j, (-0.009509794+0.3589081927j), (0.1770538474+0.1987360498j), (0.0839458936-0.1100408104j), (-0.2527650181-0.4789526366j), (0.3713797374-0.1101954243j)]),
    "expm1": ([6], [(1.3093075518+0.970038456j), (1.8817555564+0.35420312j), (1.3098568914+0.4686445553j), (0.596883769-0.0314590437j), (0.0583831058-0.7619517458j), (-0.7697509755-0.5535306535j)]),
    "exp2": ([6], [(0.8372971431+0.6812247857j), (1.0772780597+0.3988054256j), (0.7391373001+0.3142332259j), (0.3528893231-0.0520969194j), (0.0214712416-0.4945288456j), (-0.4681613464-0.4772752151j)]),
    "prod": ([2, 3], [(2.3566625229-0.9573139511j), (0.7000652086-0.2235882132j), (0.5530842864-0.6451857859j), (0.5856153888-0.3056527487j), (1.440527771-0.5668541499j), (-0.12052128+0.6659526233j)]),
    "prod_all": ([6], [(0.0255247528-0.0436511177j), (0.0083192442-0.0120091587j), (0.0008927492-0.0168697526j), (-0.0133754099-0.0125638939j), (-0.0280488671-0.0325980928j), (0.0185704939-0.0029320443j)]),
    "var": ([2, 3], [(-0.5109250362-0.2941460099j), (0.1311216787+0.5037301499j), (0.3798033574-0.20958414j), (0.4793331176-0.6289031808j), (0.0057820347-0.2772255723j), (-0.4851151523+0.9061287531j)]),
    "std": ([2, 3], [(-0.2979676483+0.3977467306j), (0.157708159+0.4145095111j), (0.2871730064-0.1625610734j), (0.2979676483-0.3977467306j), (-0.157708159-0.4145095111j), (-0.2871730064+0.1625610734j)]),
    "logsumexp": ([2, 3], [(0.125581592+0.2501562726j), (0.5097133241+0.1592447545j), (0.3586611819+0.5845550709j), (0.3448453362+0.6690099504j), (0.3379862219+0.2837461416j), (0.2041633646-0.1506603341j)]),
}


@pytest.mark.parametrize("name", sorted(TORCH_GRADS))
def test_gradients_match_torch(name):
    value, f = cases()[name]
    x = mf.tensor(value, dtype=mf.complex128).requires_grad_()
    loss(f(x)).backward()
    shape, expected = TORCH_GRADS[name]
    assert tuple(x.grad.shape) == tuple(shape) and x.grad.dtype == mf.complex128
    np.testing.assert_allclose(x.grad.numpy().ravel(), np.array(expected), rtol=1e-8, atol=1e-8)
