import torch
import torch.nn.functional as F

wave = data(1, 200)
pre = torch.cat([wave[:, :1], wave[:, 1:] - 0.97 * wave[:, :-1]], dim=1)
frames = pre.unfold(-1, 40, 20)
win = torch.hamming_window(40, periodic=False)
frames = frames * win
energy = frames.pow(2).sum(-1)
spec = torch.fft.rfft(frames, n=64)
mag = spec.abs()
zcr = (frames[..., 1:].sign() != frames[..., :-1].sign()).float().mean(-1)
padded = F.pad(pre.unsqueeze(0), (20, 20), mode="reflect").squeeze(0)
delta = F.conv1d(energy.unsqueeze(0), torch.tensor([[[-1.0, 0.0, 1.0]]]) / 2, padding=1)
report(nframes=frames.shape[1], energy=energy, zcr=zcr, mag=mag[0, 2, :6], padded=padded[0, :3], delta=delta[0, 0],
       bw=torch.blackman_window(5), kw=torch.kaiser_window(5, periodic=False, beta=8.0), bart=torch.bartlett_window(6))
