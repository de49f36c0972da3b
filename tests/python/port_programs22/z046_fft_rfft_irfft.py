import torch

x = data(2, 16, seed=55)
X = torch.fft.rfft(x)
back = torch.fft.irfft(X, n=16)
Xo = torch.fft.rfft(x, norm="ortho")
full = torch.fft.fft(x)
r = {
    "X_real": X.real[0], "X_imag": X.imag[0], "shape": X.shape, "dtype": X.dtype,
    "back_close": bool(torch.allclose(back, x, atol=1e-5)), "ortho_abs": Xo.abs()[1],
    "full_match": bool(torch.allclose(full[:, :9], X, atol=1e-5)),
    "power": (X.abs() ** 2)[1],
    "padded": torch.fft.rfft(x[0], n=20).abs(),
    "irfft_odd": torch.fft.irfft(X[0, :5], n=9),
    "ifft": torch.fft.ifft(full).real[1, :4],
}
xg = x.clone().requires_grad_()
torch.fft.rfft(xg).abs().sum().backward()
r["grad"] = xg.grad[0]
report(**r)
