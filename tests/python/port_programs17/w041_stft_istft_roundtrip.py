import torch

x = data(2, 64, seed=1)
win = torch.hann_window(16)
S = torch.stft(x, n_fft=16, hop_length=4, window=win, return_complex=True)
y = torch.istft(S, n_fft=16, hop_length=4, window=win, length=64)
mag = S.abs()
ph = S.angle()
P = mag.pow(2)
db = 10 * torch.log10(torch.clamp(P, min=1e-10))
db = torch.max(db, db.amax(dim=(-2, -1), keepdim=True) - 80.0)
S2 = torch.stft(x, n_fft=16, hop_length=8, win_length=12, window=torch.hamming_window(12), center=False, return_complex=True, normalized=True)
report(shape=list(S.shape), err=(y - x).abs().max().item() < 1e-4, mag=mag[0, :, 3], ph=ph[1, 2, :4], db=db[0, 5, :5],
       s2=torch.view_as_real(S2)[0, 1, :2], s2shape=list(S2.shape), dtype=S.dtype)
# TOL 5e-4
