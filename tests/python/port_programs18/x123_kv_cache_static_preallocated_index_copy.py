import torch

B, H, Tmax, D = 1, 2, 6, 3
k_cache = torch.zeros(B, H, Tmax, D)
v_cache = torch.zeros(B, H, Tmax, D)
outs = []
for t in range(4):
    k_new = data(B, H, 1, D, seed=10 + t)
    v_new = data(B, H, 1, D, seed=20 + t)
    pos = torch.tensor([t])
    k_cache.index_copy_(2, pos, k_new)
    v_cache[:, :, t:t + 1] = v_new
    q = data(B, H, 1, D, seed=30 + t)
    att = (q @ k_cache[:, :, : t + 1].transpose(-1, -2)) / D ** 0.5
    outs.append(att.softmax(-1) @ v_cache[:, :, : t + 1])
report(out=torch.cat(outs, 2)[0, 1], filled=(k_cache.abs().sum(-1) > 0).sum(-1))
