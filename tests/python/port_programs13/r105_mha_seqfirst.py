import torch
import torch.nn as nn
mha = det(nn.MultiheadAttention(6, 2), 0, 0.3)
L, S, N = 3, 4, 2
q, k = data(L, N, 6), data(S, N, 6, seed=3)
fmask = torch.zeros(N, S); fmask[1, 0] = float("-inf")
out, w = mha(q, k, k, key_padding_mask=fmask)
m3 = torch.zeros(N * 2, L, S); m3[:, :, -1] = float("-inf"); m3[1, 0, 0] = float("-inf")
out3, w3 = mha(q, k, k, attn_mask=m3, average_attn_weights=False)
uq = mha(q[:, 0], k[:, 0], k[:, 0])[0]
report(out=out[0], w=w[1], out3=out3[2, 1], w3=w3[0, 1, 0], uq=list(uq.shape), same=torch.allclose(uq, mha(q, k, k)[0][:, 0], atol=1e-6))
