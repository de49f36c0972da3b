"""Complex tensors (complex64, complex128) and meshflow.fft on one device, against NumPy:
creation and NumPy round trips, printing, torch's type promotion (float + complex ->
complex), complex/polar/real/imag/view_as_real/view_as_complex/conj/abs/angle, + - * / exp
sum mean, the ops that refuse complex (naming themselves), every fft function against
numpy.fft for many lengths (primes, powers of two, odd) and norms, stft/istft against a NumPy
framing, and gradients (fft ops, abs, angle, real/imag, the views, complex products, polar,
stft, a spectral loss) against the values torch 2.15 gives (written out below: the tests do
not need torch)."""
import numpy as np
import pytest

import meshflow as mf


def sig(n, k=1.0):
    i = np.arange(n, dtype=np.float64)
    return np.sin(0.7 * i * k + 0.3) + 0.1 * i


def cplx(n):
    return sig(n) + 1j * sig(n, 1.9)


def weights(shape, k=0.37):
    i = np.arange(int(np.prod(shape)), dtype=np.float64)
    return np.cos(k * i + 0.11).reshape(shape)


def close(t, expected, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(t.numpy(), expected, rtol=rtol, atol=atol)


# ---------------------------------------------------------------------------------------------
# The dtype.

def test_names_and_aliases():
    assert mf.cfloat is mf.complex64 and mf.cdouble is mf.complex128
    assert mf.complex64.is_complex and not mf.complex64.is_floating_point and not mf.float32.is_complex
    assert mf.complex64.itemsize == 8 and mf.complex128.itemsize == 16
    assert repr(mf.complex64) == "meshflow.complex64"


def test_creation_numpy_round_trip_and_item():
    t = mf.tensor([1 + 2j, 3.5 - 1j])
    assert t.dtype == mf.complex64 and t.is_complex() and mf.is_complex(t)
    np.testing.assert_array_equal(t.numpy(), np.array([1 + 2j, 3.5 - 1j], dtype=np.complex64))
    array = (np.arange(6) + 1j * np.arange(6)[::-1]).reshape(2, 3)
    u = mf.from_numpy(array)
    assert u.dtype == mf.complex128 and u.numpy().dtype == np.complex128
    np.testing.assert_array_equal(u.numpy(), array)
    assert mf.tensor(array, dtype=mf.complex64).numpy().dtype == np.complex64
    assert mf.tensor([1.5, 2 + 1j]).dtype == mf.complex64
    assert mf.tensor(2 - 3j).item() == 2 - 3j
    assert mf.zeros(3, dtype=mf.cfloat).numpy().tolist() == [0j, 0j, 0j]
    assert mf.tensor([1.0, 2.0]).to(mf.complex64).numpy().tolist() == [1 + 0j, 2 + 0j]
    assert mf.tensor([1 + 5j]).to(mf.float32).numpy().tolist() == [1.0]  # the real part, as torch's cast


def test_printing_as_torch():
    assert repr(mf.tensor([1 + 2j, 3.5 - 1j])) == "tensor([1.0000+2.j, 3.5000-1.j])"
    assert repr(mf.tensor([1j], dtype=mf.complex128)) == "tensor([0.+1.j], dtype=meshflow.complex128)"
    assert repr(mf.tensor([[1 + 2j, -3j], [0.5, 2]])) == ("tensor([[1.0000+2.j, -0.0000-3.j],\n"
                                                          "        [0.5000+0.j, 2.0000+0.j]])")
    assert repr(mf.tensor([1e-5 + 2j, 300 - 1j])) == "tensor([1.0000e-05+2.j, 3.0000e+02-1.j])"


def test_parts_and_views():
    z = cplx(6).astype(np.complex64)
    t = mf.tensor(z)
    close(t.real, z.real)
    close(t.imag, z.imag)
    close(mf.real(t), z.real)
    close(mf.view_as_real(t), np.stack([z.real, z.imag], -1))
    close(mf.view_as_complex(mf.view_as_real(t)), z)
    close(t.conj(), np.conj(z))
    close(t.abs(), np.abs(z))
    close(mf.abs(t), np.abs(z))
    close(t.angle(), np.angle(z))
    assert t.abs().dtype == mf.float32 and mf.view_as_real(t).dtype == mf.float32
    re, im = mf.tensor(sig(5), dtype=mf.float64), mf.tensor(sig(5, 2.0), dtype=mf.float64)
    out = mf.complex(re, im)
    assert out.dtype == mf.complex128
    close(out, sig(5) + 1j * sig(5, 2.0), rtol=1e-12)
    close(mf.polar(re, im), sig(5) * np.exp(1j * sig(5, 2.0)), rtol=1e-12)
    x = mf.tensor([-1.0, 2.0, 0.0])
    assert x.real is x and not mf.is_complex(x)
    close(mf.angle(x), np.angle(np.array([-1.0, 2.0, 0.0])))
    with pytest.raises(RuntimeError, match="imag"):
        x.imag
    with pytest.raises(RuntimeError, match="view_as_complex"):
        mf.view_as_complex(mf.ones(3, 3))


def test_arithmetic_and_promotion():
    a, b = cplx(6).astype(np.complex64), (cplx(6)[::-1] * 0.5).astype(np.complex64)
    ta, tb = mf.tensor(a), mf.tensor(b)
    for op in ("__add__", "__sub__", "__mul__", "__truediv__"):
        out = getattr(ta, op)(tb)
        assert out.dtype == mf.complex64
        close(out, getattr(a, op)(b), rtol=1e-5)
    close(-ta, -a)
    close(mf.exp(ta * 0.3), np.exp(a * np.float32(0.3)), rtol=1e-5)
    r = mf.tensor(sig(6), dtype=mf.float32)
    assert (r + ta).dtype == mf.complex64 and (ta * r).dtype == mf.complex64
    close(r * ta, sig(6).astype(np.float32) * a)
    assert (mf.tensor(sig(6), dtype=mf.float64) + ta).dtype == mf.complex128
    assert (mf.arange(3) + 1j).dtype == mf.complex64
    close(ta * 2.5, a * 2.5)
    close(ta + 1j, a + 1j)
    close(ta * (1 - 2j), a * (1 - 2j))
    close(2 / ta, 2 / a, rtol=1e-5)
    close(ta - 1, a - 1)
    close(1j - ta, 1j - a)
    assert (ta + mf.tensor(1.0, dtype=mf.float64)).dtype == mf.complex64  # a 0-d float never widens complex
    assert mf.result_type(mf.tensor([1.0]), 1j) == mf.complex64
    assert mf.promote_types(mf.float64, mf.complex64) == mf.complex128
    eq = mf.tensor([1 + 2j, 3j, 2.0]) == mf.tensor([1 + 2j, -3j, 2.0])
    assert eq.dtype == mf.bool and eq.numpy().tolist() == [True, False, True]
    assert (ta != ta.conj()).numpy().tolist() == (a != np.conj(a)).tolist()


def test_matmul():
    a, b = cplx(24).reshape(2, 3, 4), cplx(20).reshape(4, 5)[::-1].copy()
    close(mf.tensor(a, dtype=mf.complex64) @ mf.tensor(b, dtype=mf.complex64), a @ b, rtol=1e-5, atol=1e-4)
    close(mf.tensor(a) @ mf.tensor(a).transpose(-1, -2), a @ np.swapaxes(a, -1, -2), rtol=1e-12, atol=1e-12)


def test_reductions():
    z = cplx(24).reshape(2, 3, 4).astype(np.complex64)
    t = mf.tensor(z)
    close(t.sum(), z.sum(), rtol=1e-5)
    close(t.sum(1), z.sum(1), rtol=1e-5)
    close(t.mean((0, 2)), z.mean((0, 2)), rtol=1e-5)
    close(t.mean(-1, keepdim=True), z.mean(-1, keepdims=True), rtol=1e-5)


def test_unsupported_ops_raise_naming_the_op_and_dtype():
    t = mf.tensor([1 + 1j, 2 - 1j])
    for call, name in ((lambda: mf.erf(t), "erf"), (lambda: t.amax(), "amax"), (lambda: mf.sort(t), "sort"),
                       (lambda: t.cumprod(0), "cumprod"), (lambda: t < t, "lt")):
        with pytest.raises(RuntimeError, match=name) as info:
            call()
        assert "complex64" in str(info.value)


# ---------------------------------------------------------------------------------------------
# meshflow.fft against numpy.fft.

SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 30, 31, 64, 97, 100, 127, 128, 243, 255, 256, 1000, 1009]


def spectrum_close(t, expected, n):
    """float32 tolerance scaled by the spectrum's size (errors grow with log n, values with n)."""
    scale = max(1.0, float(np.abs(expected).max()))
    np.testing.assert_allclose(t.numpy(), expected, rtol=0, atol=2e-6 * scale * max(1.0, np.log2(n)))


@pytest.mark.parametrize("n", SIZES)
def test_fft_ifft_rfft_irfft_match_numpy(n):
    z = np.random.default_rng(n).standard_normal((3, n)) + 1j * np.random.default_rng(n + 1).standard_normal((3, n))
    x = z.real.copy()
    tz, tx = mf.tensor(z, dtype=mf.complex64), mf.tensor(x, dtype=mf.float32)
    spectrum_close(mf.fft.fft(tz), np.fft.fft(z), n)
    spectrum_close(mf.fft.ifft(tz), np.fft.ifft(z), n)
    spectrum_close(mf.fft.fft(tx), np.fft.fft(x), n)
    spectrum_close(mf.fft.rfft(tx), np.fft.rfft(x), n)
    spectrum_close(mf.fft.irfft(mf.fft.rfft(tx), n=n), x, n)
    half = np.fft.rfft(x)
    spectrum_close(mf.fft.irfft(mf.tensor(half, dtype=mf.complex64), n=n), np.fft.irfft(half, n=n), n)
    assert mf.fft.fft(tx).dtype == mf.complex64 and mf.fft.irfft(mf.fft.rfft(tx), n=n).dtype == mf.float32


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_norms_lengths_and_dims(norm):
    z = cplx(60).reshape(6, 10)
    x = z.real.copy()
    tz, tx = mf.tensor(z, dtype=mf.complex128), mf.tensor(x, dtype=mf.float64)
    kw = {} if norm is None else {"norm": norm}
    for n in (4, 10, 13):
        close(mf.fft.fft(tz, n=n, dim=0, **kw), np.fft.fft(z, n=n, axis=0, **kw), rtol=1e-10, atol=1e-10)
        close(mf.fft.ifft(tz, n=n, **kw), np.fft.ifft(z, n=n, **kw), rtol=1e-10, atol=1e-10)
        close(mf.fft.rfft(tx, n=n, dim=0, **kw), np.fft.rfft(x, n=n, axis=0, **kw), rtol=1e-10, atol=1e-10)
        close(mf.fft.irfft(tz, n=n, **kw), np.fft.irfft(z, n=n, **kw), rtol=1e-10, atol=1e-10)
    close(mf.fft.irfft(tz, **kw), np.fft.irfft(z, **kw), rtol=1e-10, atol=1e-10)
    assert mf.fft.fft(tz).dtype == mf.complex128 and mf.fft.irfft(tz).dtype == mf.float64


def test_nd_transforms_match_numpy():
    rng = np.random.default_rng(0)
    z = rng.standard_normal((3, 5, 6, 4)) + 1j * rng.standard_normal((3, 5, 6, 4))
    x = z.real.copy()
    tz, tx = mf.tensor(z, dtype=mf.complex128), mf.tensor(x, dtype=mf.float64)
    tol = {"rtol": 1e-10, "atol": 1e-10}
    close(mf.fft.fft2(tz), np.fft.fft2(z), **tol)
    close(mf.fft.ifft2(tz, s=(4, 7)), np.fft.ifft2(z, s=(4, 7)), **tol)
    close(mf.fft.fftn(tz), np.fft.fftn(z), **tol)
    close(mf.fft.fftn(tz, dim=(0, 2)), np.fft.fftn(z, axes=(0, 2)), **tol)
    close(mf.fft.ifftn(tz, s=(3, 8), dim=(1, 3), norm="ortho"), np.fft.ifftn(z, s=(3, 8), axes=(1, 3), norm="ortho"),
          **tol)
    close(mf.fft.fft2(tx), np.fft.fft2(x), **tol)
    close(mf.fft.rfft2(tx), np.fft.rfft2(x), **tol)
    close(mf.fft.rfftn(tx, s=(4, 5, 9)), np.fft.rfftn(x, s=(4, 5, 9)), **tol)
    close(mf.fft.rfftn(tx, dim=(0, 1)), np.fft.rfftn(x, axes=(0, 1)), **tol)
    close(mf.fft.irfft2(tz), np.fft.irfft2(z), **tol)
    close(mf.fft.irfft2(tz, s=(5, 9)), np.fft.irfft2(z, s=(5, 9)), **tol)
    close(mf.fft.irfftn(tz, dim=(0, 3), norm="forward"), np.fft.irfftn(z, axes=(0, 3), norm="forward"), **tol)
    close(mf.fft.irfftn(mf.fft.rfftn(tx), s=x.shape), x, **tol)
    # float32 signals of the sizes a spectral layer meets
    y = rng.standard_normal((2, 3, 32, 17)).astype(np.float32)
    np.testing.assert_allclose(mf.fft.rfft2(mf.tensor(y)).numpy(), np.fft.rfft2(y), atol=2e-4)
    np.testing.assert_allclose(mf.fft.irfft2(mf.fft.rfft2(mf.tensor(y)), s=(32, 17)).numpy(), y, atol=2e-5)


def test_frequencies_and_shifts():
    for n in (1, 6, 7):
        close(mf.fft.fftfreq(n), np.fft.fftfreq(n))
        close(mf.fft.fftfreq(n, d=0.25), np.fft.fftfreq(n, d=0.25))
        close(mf.fft.rfftfreq(n, 0.5), np.fft.rfftfreq(n, 0.5))
    a = np.arange(30.0).reshape(5, 6)
    t = mf.tensor(a)
    close(mf.fft.fftshift(t), np.fft.fftshift(a))
    close(mf.fft.ifftshift(t), np.fft.ifftshift(a))
    close(mf.fft.fftshift(t, dim=1), np.fft.fftshift(a, axes=1))
    close(mf.fft.ifftshift(mf.tensor(cplx(7))), np.fft.ifftshift(cplx(7)))


def test_fft_errors():
    with pytest.raises(RuntimeError, match="rfft expects a real input"):
        mf.fft.rfft(mf.tensor([1j, 2j]))
    with pytest.raises(ValueError, match="normalization"):
        mf.fft.fft(mf.ones(4), norm="sideways")
    with pytest.raises(RuntimeError, match="Invalid number of data points"):
        mf.fft.fft(mf.ones(4), n=0)
    assert mf.fft.fft(mf.arange(4)).dtype == mf.complex64  # integers in the default float dtype


# ---------------------------------------------------------------------------------------------
# stft and istft.

def numpy_stft(x, n_fft, hop, window, center=True, normalized=False):
    if center:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)], mode="reflect")
    count = (x.shape[-1] - n_fft) // hop + 1
    frames = np.stack([x[..., i * hop:i * hop + n_fft] * window for i in range(count)], -2)
    out = np.fft.rfft(frames, axis=-1, norm="ortho" if normalized else None)
    return np.swapaxes(out, -1, -2)


def test_stft_matches_numpy_and_istft_inverts_it():
    x = sig(50)
    window = mf.hann_window(16, dtype=mf.float64)
    s = mf.stft(mf.tensor(x), 16, hop_length=4, window=window, return_complex=True)
    assert s.dtype == mf.complex128 and tuple(s.shape) == (9, 13)
    close(s, numpy_stft(x, 16, 4, window.numpy()), rtol=1e-10, atol=1e-10)
    close(mf.istft(s, 16, hop_length=4, window=window, length=50), x, rtol=1e-10, atol=1e-10)
    batch = x.reshape(2, 25)
    w = mf.hamming_window(6, dtype=mf.float64)
    s2 = mf.stft(mf.tensor(batch), 8, hop_length=3, win_length=6, window=w, return_complex=True, normalized=True)
    padded = np.concatenate([np.zeros(1), w.numpy(), np.zeros(1)])
    close(s2, numpy_stft(batch, 8, 3, padded, normalized=True), rtol=1e-10, atol=1e-10)
    back = mf.istft(s2, 8, hop_length=3, win_length=6, window=w, normalized=True)
    close(back, batch[:, :back.shape[1]], rtol=1e-9, atol=1e-9)
    f32 = mf.stft(mf.tensor(x, dtype=mf.float32), 16, window=mf.hann_window(16), return_complex=True)
    assert f32.dtype == mf.complex64
    with pytest.raises(RuntimeError, match="return_complex"):
        mf.stft(mf.tensor(x), 16)
    close(mf.view_as_real(s), mf.stft(mf.tensor(x), 16, hop_length=4, window=window, return_complex=False).numpy())


# ---------------------------------------------------------------------------------------------
# Gradients, against torch 2.15's (the conjugate Wirtinger convention: a real loss's gradient for
# a complex z is dL/dre + i dL/dim). Inputs are float64/complex128 for exact comparison.

def loss_c(y):
    """A real loss of a complex tensor: sum(re(y) a + im(y) b) with fixed weights."""
    shape = tuple(y.shape)
    a, b = mf.tensor(weights(shape), dtype=mf.float64), mf.tensor(weights(shape, 0.53), dtype=mf.float64)
    return (y.real * a + y.imag * b).sum()


def loss_r(y):
    return (y * mf.tensor(weights(tuple(y.shape)), dtype=mf.float64)).sum()


def c128(values):
    return mf.tensor(values, dtype=mf.complex128)


GRAD_CASES = {
    "fft_c": (cplx(6), lambda x: mf.fft.fft(x), loss_c),
    "fft_c_ortho_n8": (cplx(6), lambda x: mf.fft.fft(x, n=8, norm="ortho"), loss_c),
    "ifft_c_n4": (cplx(6), lambda x: mf.fft.ifft(x, n=4), loss_c),
    "fft_r": (sig(7), lambda x: mf.fft.fft(x), loss_c),
    "rfft_r7": (sig(7), lambda x: mf.fft.rfft(x), loss_c),
    "rfft_r8_forward": (sig(8), lambda x: mf.fft.rfft(x, norm="forward"), loss_c),
    "irfft_c_n7": (cplx(4), lambda x: mf.fft.irfft(x, n=7), loss_r),
    "irfft_c_default": (cplx(5), lambda x: mf.fft.irfft(x), loss_r),
    "irfft_c_ortho_n10": (cplx(4), lambda x: mf.fft.irfft(x, n=10, norm="ortho"), loss_r),
    "rfft2_r": (sig(12).reshape(3, 4), lambda x: mf.fft.rfft2(x), loss_c),
    "irfft2_c": (cplx(9).reshape(3, 3), lambda x: mf.fft.irfft2(x, s=(3, 5)), loss_r),
    "fftn_c": (cplx(12).reshape(2, 3, 2), lambda x: mf.fft.fftn(x, dim=(0, 2)), loss_c),
    "abs": (cplx(6), lambda x: x.abs(), loss_r),
    "angle": (cplx(6), lambda x: x.angle(), loss_r),
    "real": (cplx(6), lambda x: x.real * 1.0, loss_r),
    "imag": (cplx(6), lambda x: x.imag * 1.0, loss_r),
    "view_as_real": (cplx(6), lambda x: mf.view_as_real(x), loss_r),
    "view_as_complex": (sig(12).reshape(6, 2), lambda x: mf.view_as_complex(x), loss_c),
    "mul_a": (cplx(6), lambda x: x * c128(cplx(6)[::-1].copy()), loss_c),
    "div_a": (cplx(6), lambda x: c128(cplx(6)[::-1].copy()) / x, loss_c),
    "exp": (cplx(6) * 0.3, lambda x: mf.exp(x), loss_c),
    "conj": (cplx(6), lambda x: x.conj() * 1.0, loss_c),
    "sum_mean": (cplx(6), lambda x: (x.sum() * 2 + x.mean()).reshape(1), loss_c),
    "complex_re": (sig(5), lambda re: mf.complex(re, mf.tensor(sig(5, 2.0))), loss_c),
    "polar_abs": (sig(5) + 2, lambda r: mf.polar(r, mf.tensor(sig(5, 2.0))), loss_c),
    "polar_angle": (sig(5, 2.0), lambda t: mf.polar(mf.tensor(sig(5) + 2), t), loss_c),
    "stft": (sig(40), lambda x: mf.stft(x, 16, hop_length=4, window=mf.hann_window(16, dtype=mf.float64),
                                        return_complex=True), loss_c),
    "matmul_a": (cplx(6).reshape(2, 3), lambda x: x @ c128(cplx(6)[::-1].copy().reshape(3, 2)), loss_c),
    "matmul_b": (cplx(6).reshape(3, 2), lambda x: c128(cplx(12).reshape(4, 3)) @ x, loss_c),
    "spectral_loss": (sig(16), lambda x: (mf.fft.rfft(x).abs() ** 2).reshape(-1), loss_r),
}

# torch 2.15's x.grad for each case (shape, values), from the same inputs and losses.
TORCH_GRADS = {
    "fft_c": ([6], [
        (2.4859256552+0.51679877j), (-1.7829893034+2.8559470778j), (0.1333811539+1.5478510074j),
        (0.7835478466+1.0264416632j), (1.3934987237+0.5306850336j), (2.9503725116-0.5139869643j)]),
    "fft_c_ortho_n8": ([6], [
        (0.3159033107-0.4422183014j), (-0.7196929554+1.9433203345j), (0.078373508+0.7241813695j),
        (0.2461556877+0.4496891616j), (0.3532974067+0.2885020479j), (0.4608912227+0.1460181562j)]),
    "ifft_c_n4": ([6], [
        (0.7211449782+0.5143397615j), (0.3162283011+0.0151138093j), (0.1058246437+0.1777141297j),
        (-0.149241825+0.2867883975j), 0j, 0j]),
    "fft_r": ([7], [1.7975816348, -2.1322842579, 0.1031757628, 0.699672341, 1.1357093765, 1.6954025023, 3.658435326]),
    "rfft_r7": ([7], [2.8845799129, 0.13894425, -0.2972232432, 0.612456332, 0.447195018, 1.1296562628, 2.0420841531]),
    "rfft_r8_forward": ([8], [
        0.3581721775, 0.0663940325, -0.0770212241, 0.0678804818, 0.0505120102, 0.0893576942, 0.1557138389, 0.282947087]),
    "irfft_c_n7": ([4], [
        (0.2567973764+0j), (0.2180215812-0.6864164684j), (0.2569397522-0.2289033784j), (0.2621973882-0.0641719686j)]),
    "irfft_c_default": ([5], [
        (0.1116886866+0j), (0.256600463-0.7815274967j), (0.2507786199-0.2669923884j), (0.2499788325-0.1073639136j),
        (0.124909496+0j)]),
    "irfft_c_ortho_n10": ([4], [
        (-0.335117564+0j), (1.2390168328-2.681253754j), (0.6963323571-0.8582637174j), (0.6296981828-0.4309558935j)]),
    "rfft2_r": ([3, 4], [
        -0.1039288476, 1.9551297726, -0.0313694233, 0.7771997938, 3.471328701, -3.6877126751, 1.0617329458,
        0.8401787783, 4.2554026465, 0.3282144851, 1.2704694407, 1.7908275578]),
    "irfft2_c": ([3, 3], [
        (-0.1174444615+0j), (0.0389474947-0.0185063647j), (0.0217285156-0.0040940501j), (0.3452599728+0.1860903881j),
        (-0.1058195816-0.3688579293j), (0.0705236219-0.1788646335j), (0.3452599728-0.1860903881j),
        (0.2469384375-0.0317490722j), (0.1485621259+0.0902407911j)]),
    "fftn_c": ([2, 3, 2], [
        (0.2885348583+0.0284708472j), (0.3226892968-0.0185743053j), (-0.9496153868+0.0736254508j),
        (0.2747049978-0.0023402123j), (-1.6910570704+0.0435160076j), (0.0830327108+0.0162861764j),
        (3.4733671832+3.5636328644j), (-0.1087669464+0.4022949854j), (2.9568731712+0.4489889292j),
        (0.3579698014+1.0403325695j), (0.8937485551-3.1246365593j), (0.637465833+0.6148841127j)]),
    "abs": ([6], [
        (0.7028330971+0.7028330971j), (0.5772894975+0.673421732j), (0.6286965717+0.2007943565j),
        (0.2910822632-0.1826568231j), (-0.0172551303+0.008425925j), (0.0377599628-0.3775683077j)]),
    "angle": ([6], [
        (-1.6817058116+1.6817058116j), (-0.465535399+0.3990793343j), (-0.1605113083+0.5025684536j),
        (0.1586097165+0.252760748j), (-0.0171462114-0.0351130719j), (0.3358952695+0.0335923133j)]),
    "real": ([6], [
        (0.993956098+0j), (0.8869949228+0j), (0.6599831459+0j), (0.3436457463+0j), (-0.0192024929+0j),
        (-0.3794517648+0j)]),
    "imag": ([6], [0.993956098j, 0.8869949228j, 0.6599831459j, 0.3436457463j, (-0-0.0192024929j), (-0-0.3794517648j)]),
    "view_as_real": ([6], [
        (0.993956098+0.8869949228j), (0.6599831459+0.3436457463j), (-0.0192024929-0.3794517648j),
        (-0.6883440204-0.904072142j), (-0.9974383404-0.9558059386j), (-0.7848096869-0.5075931258j)]),
    "view_as_complex": ([6, 2], [
        0.993956098, 0.993956098, 0.8869949228, 0.8020957579, 0.6599831459, 0.3901516843, 0.3436457463, -0.1288444943,
        -0.0192024929, -0.6124875657, -0.3794517648, -0.9280727102]),
    "mul_a": ([6], [
        (1.0005442748-1.2229079404j), (0.2187238129+0.5454527847j), (0.4049726513+0.7845623408j),
        (0.3604728095-0.2843297384j), (-0.6907418182-0.5555501727j), (-0.3863999031-0.1621285752j)]),
    "div_a": ([6], [
        (-7.0014727945-5.7283817433j), (0.2735804171-0.0634632395j), (0.079723317-0.5585319822j),
        (0.0748251325+0.338000549j), (3.5730376027-0.8409954718j), (-0.2743438565-0.1863350005j)]),
    "exp": ([6], [
        (1.1779983553+0.9856717325j), (1.4574091606+0.626003487j), (1.0010194731+0.4466806627j),
        (0.4842549223-0.0856599936j), (0.0233253513-0.6992007698j), (-0.6419813298-0.7265715897j)]),
    "conj": ([6], [
        (0.993956098-0.993956098j), (0.8869949228-0.8020957579j), (0.6599831459-0.3901516843j),
        (0.3436457463+0.1288444943j), (-0.0192024929+0.6124875657j), (-0.3794517648+0.9280727102j)]),
    "sum_mean": ([6], [
        (2.1535715456+2.1535715456j), (2.1535715456+2.1535715456j), (2.1535715456+2.1535715456j),
        (2.1535715456+2.1535715456j), (2.1535715456+2.1535715456j), (2.1535715456+2.1535715456j)]),
    "complex_re": ([5], [0.993956098, 0.8869949228, 0.6599831459, 0.3436457463, -0.0192024929]),
    "polar_abs": ([5], [1.2403461989, 1.1206886167, 0.734156904, 0.3485112637, -0.0351943393]),
    "polar_angle": ([5], [1.5182376219, -1.2276003611, 0.7051320872, 0.3422843536, -1.493702922]),
    "stft": ([40], [
        1.0233817308, 0.686121674, 7.4020949884, 2.380835904, 0.7290702249, 1.6685388171, 2.8264472012, 1.2761897321,
        0.7380549127, 1.2662815428, 0.5729940359, 1.5344037781, 0.0966838963, 0.927866311, -2.3407050351,
        1.6092406067, -0.6331953269, 0.4815163795, -5.0666356641, 1.4502308935, -1.3467665647, -0.0134420914,
        -7.2081437013, 1.0850463083, -1.9223806419, -0.4956485038, -8.4198723161, 0.5719778009, -2.2448990789,
        -0.9084679791, -8.4697366156, -0.1720300066, -2.025182251, -1.4447308502, -7.0704396711, -3.0260866783,
        -3.123996725, -0.1141688614, -5.2663369615, -0.5948820804]),
    "matmul_a": ([2, 3], [
        (1.2192680876-0.6774551557j), (1.7234302074+2.1962225664j), (2.5265515246-0.1809188636j),
        (0.5420849922-0.7646184067j), (0.7654454607+0.5002326024j), (1.1133163897-0.4971390762j)]),
    "matmul_b": ([3, 2], [
        (-1.3607681616+0.2650566611j), (-1.9141213214+0.5895156366j), (-1.1901839977-0.2693181357j),
        (-1.634032034+0.4043245587j), (-1.181538547-1.0665758498j), (-2.0895736149-0.2202203394j)]),
    "spectral_loss": ([16], [
        25.3066778246, 24.6360880647, 28.3917591397, 25.6021659417, 20.45774839, 13.8773600643, 11.8364682185,
        13.8661592912, 21.8894890968, 30.7179674913, 39.0778153393, 41.616912069, 40.0253961401, 33.5913656581,
        28.2462842877, 21.726943998]),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_gradients_match_torch(name):
    value, f, loss = GRAD_CASES[name]
    x = mf.tensor(value, dtype=mf.complex128 if np.iscomplexobj(value) else mf.float64).requires_grad_()
    loss(f(x)).backward()
    shape, expected = TORCH_GRADS[name]
    assert tuple(x.grad.shape) == tuple(shape) and x.grad.dtype == x.dtype
    np.testing.assert_allclose(x.grad.numpy().ravel(), np.array(expected), rtol=1e-8, atol=1e-8)


def test_spectral_layer_trains():
    """A Fourier layer's step (FNO's: rfft2, a complex weight on the low modes, irfft2) lowers
    its loss, the weight a complex leaf."""
    rng = np.random.default_rng(1)
    x = mf.tensor(rng.standard_normal((4, 16, 16)), dtype=mf.float32)
    target = mf.tensor(rng.standard_normal((4, 16, 16)), dtype=mf.float32)
    weight = mf.tensor((rng.standard_normal((4, 9)) + 1j * rng.standard_normal((4, 9))) * 0.1,
                       dtype=mf.complex64).requires_grad_()
    losses = []
    for _ in range(5):
        spectrum = mf.fft.rfft2(x)[:, :4, :]
        out = mf.fft.irfft2(spectrum * weight, s=(16, 16))
        loss = ((out - target) ** 2).mean()
        losses.append(loss.item())
        loss.backward()
        with mf.no_grad():
            weight -= 50.0 * weight.grad
        weight.grad = None
    assert losses[-1] < losses[0], losses


# torch 2.15's values after three steps (the same loss and starting point).
TORCH_STEPS = {
    "adam": [(0.00051 + 0.009243j), (0.642104 + 0.799634j), (0.892674 + 0.088748j), (0.676785 - 0.315536j),
             (0.145554 + 0.056726j), (-0.410785 + 0.819836j)],
    "sgd": [(-0.017392 + 0.108095j), (0.67918 + 0.952521j), (0.278112 + 0.128675j), (0.10793 - 0.144335j),
            (-0.104263 - 0.005846j), (-0.239222 + 1.010521j)],
}


@pytest.mark.parametrize("name", sorted(TORCH_STEPS))
def test_optimizers_update_complex_parameters_as_torch(name):
    """torch's optimizers take a complex parameter as its real and imaginary parts (view_as_real)."""
    q = mf.tensor(cplx(6), dtype=mf.complex64).requires_grad_()
    c = mf.tensor(cplx(6)[::-1].copy(), dtype=mf.complex64)
    opt = mf.optim.Adam([q], lr=0.1) if name == "adam" else mf.optim.SGD([q], lr=0.05, momentum=0.9)
    for _ in range(3):
        loss = ((q * c).abs() ** 2).sum() + (q.real * 0.5).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    np.testing.assert_allclose(q.detach().numpy(), TORCH_STEPS[name], rtol=1e-4, atol=1e-5)
