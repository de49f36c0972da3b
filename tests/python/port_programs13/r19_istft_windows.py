import torch
x = data(1000)
n_fft, hop = 64, 16
wins = {"hann": torch.hann_window(n_fft), "hamming": torch.hamming_window(n_fft), "blackman": torch.blackman_window(n_fft),
        "bartlett": torch.bartlett_window(n_fft), "kaiser": torch.kaiser_window(n_fft, periodic=False, beta=8.0)}
res = {}
for name, w in wins.items():
    X = torch.stft(x, n_fft, hop_length=hop, win_length=n_fft, window=w, center=True, return_complex=True)
    y = torch.istft(X, n_fft, hop_length=hop, window=w, length=x.numel())
    res[name] = [(y - x).abs().max().item() < 1e-4, w.sum().item()]
X = torch.stft(x, n_fft, hop_length=hop, window=torch.hann_window(n_fft), return_complex=True, normalized=True, onesided=False)
mag, ph = X.abs(), X.angle()
Y = torch.polar(mag, ph)
spec = torch.view_as_real(X)
report(res=res, shape=list(X.shape), real_shape=list(spec.shape), close=torch.allclose(Y, X, atol=1e-5), energy=mag.pow(2).sum(), sym=wins["hann"][:4], ph=ph[1, :3])
