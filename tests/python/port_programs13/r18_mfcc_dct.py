import math
import torch
def dct_matrix(n_mfcc, n_mels):
    n = torch.arange(float(n_mels))
    k = torch.arange(float(n_mfcc)).unsqueeze(1)
    dct = torch.cos(math.pi / float(n_mels) * (n + 0.5) * k)
    dct[0] *= 1.0 / math.sqrt(2.0)
    dct *= math.sqrt(2.0 / float(n_mels))
    return dct.t()
frames = data(10, 64).abs() + 0.1
frames = frames.unfold(1, 16, 8)
energies = frames.pow(2).sum(-1)
logE = energies.log()
D = dct_matrix(5, logE.size(1))
mfcc = logE @ D
delta = torch.zeros_like(mfcc)
pad = torch.nn.functional.pad(mfcc.t().unsqueeze(0), (2, 2), mode="replicate").squeeze(0).t()
for n in (1, 2):
    delta += n * (pad[2 + n:2 + n + mfcc.size(0)] - pad[2 - n:2 - n + mfcc.size(0)])
delta /= 2 * (1 + 4)
cmvn = (mfcc - mfcc.mean(0)) / mfcc.std(0, unbiased=False)
pre = torch.cat([frames[:, 0, :1], frames[:, 0, 1:] - 0.97 * frames[:, 0, :-1]], dim=1)
report(shape=list(frames.shape), mfcc=mfcc[:3], delta=delta[:3], cmvn=cmvn[-1], orth=(D.t() @ D)[:2, :2], pre=pre[0, :4])
