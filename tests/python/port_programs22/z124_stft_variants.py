import torch

sig = data(50, seed=186)
r = {}
S = torch.stft(sig, n_fft=8, return_complex=True)
r["default_shape"] = S.shape
r["default"] = S.abs()[:, 2]
S2 = torch.stft(sig, n_fft=8, hop_length=3, win_length=6, window=torch.hann_window(6), return_complex=True, onesided=False)
r["two_sided_shape"] = S2.shape
r["two_sided"] = S2.abs()[:, 1]
S3 = torch.stft(sig, n_fft=8, hop_length=4, window=torch.hann_window(8), center=True, pad_mode="reflect", normalized=True, return_complex=True)
r["norm"] = S3.abs()[:, 0]
back = torch.istft(S3, n_fft=8, hop_length=4, window=torch.hann_window(8), normalized=True, length=50)
r["back_close"] = bool(torch.allclose(back, sig, atol=1e-4))
S4 = torch.stft(sig, n_fft=16, hop_length=4, window=torch.hann_window(16) + 0.01, center=False, return_complex=True)
back4 = torch.istft(S4, n_fft=16, hop_length=4, window=torch.hann_window(16) + 0.01, center=False)
r["b4_shape"] = back4.shape
r["b4_mid"] = bool(torch.allclose(back4[8:30], sig[8:30], atol=1e-4))
x = sig.clone().requires_grad_()
torch.stft(x, 8, hop_length=2, window=torch.hann_window(8), return_complex=True).abs().sum().backward()
r["grad"] = x.grad[:6]
report(**r)
