import torch

r = {}
for name in ("hann_window", "hamming_window", "blackman_window", "bartlett_window"):
    f = getattr(torch, name)
    r[name] = f(8)
    r[name + "_sym"] = f(7, periodic=False)
r["kaiser"] = torch.kaiser_window(6, periodic=True, beta=8.0)
r["dtype"] = torch.hann_window(4, dtype=torch.float64).dtype
sig = torch.sin(torch.arange(128) * 2 * 3.14159265 * 8 / 128) + 0.1 * data(128, seed=136)
spec = torch.stft(sig, n_fft=32, hop_length=16, window=torch.hann_window(32), return_complex=True).abs().pow(2)
r["spec_shape"] = spec.shape
r["peak_bin"] = spec.mean(1).argmax()
r["db"] = (10 * torch.log10(spec.clamp(min=1e-10)))[:, 3][:6]
report(**r)
