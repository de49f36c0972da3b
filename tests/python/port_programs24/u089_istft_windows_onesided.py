import torch

x = data(2, 120)
res = {}
for name, win in [("hann", torch.hann_window(32)), ("hamming", torch.hamming_window(32)), ("blackman", torch.blackman_window(32)),
                  ("bartlett", torch.bartlett_window(32)), ("kaiser", torch.kaiser_window(32, True, 8.0))]:
    S = torch.stft(x, 32, hop_length=8, window=win, return_complex=True)
    y = torch.istft(S, 32, hop_length=8, window=win, length=120)
    res[name] = [(y - x).abs().max().item() < 1e-4, S.abs().sum().item(), win.sum().item()]
full = torch.stft(x[0], 16, hop_length=4, window=torch.hann_window(16), onesided=False, return_complex=True)
back = torch.istft(full, 16, hop_length=4, window=torch.hann_window(16), onesided=False, return_complex=True, length=120)
norm = torch.stft(x[0], 16, hop_length=4, window=torch.hann_window(16), normalized=True, return_complex=True)
refl = torch.stft(x[0], 16, hop_length=4, window=torch.hann_window(16), pad_mode="constant", return_complex=True)
nowin = torch.stft(x[0], 16, hop_length=4, return_complex=True)
report(res=res, full_shape=full.shape, back_err=(back.real - x[0]).abs().max().item() < 1e-4, back_dtype=back.dtype,
       norm=norm.abs().sum().item(), refl=refl.abs()[:, 0], nowin=nowin.abs().sum().item(), hann_nonperiodic=torch.hann_window(5, periodic=False))
