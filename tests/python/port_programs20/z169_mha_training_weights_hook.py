import torch
import torch.nn as nn

mha = det(nn.MultiheadAttention(6, 3, batch_first=True, dropout=0.0))
proj = det(nn.Linear(6, 2), seed=2)
x = data(2, 4, 6)
kpm = torch.tensor([[False, False, False, True], [False] * 4])
opt = torch.optim.Adam(list(mha.parameters()) + list(proj.parameters()), lr=0.01)
weights = []
for _ in range(2):
    opt.zero_grad()
    out, w = mha(x, x, x, key_padding_mask=kpm)
    weights.append(w.detach())
    loss = proj(out.mean(1)).pow(2).sum()
    loss.backward()
    opt.step()
report(loss=loss.item(), w0=weights[0][0], padcol=weights[1][0, :, 3], ipw=mha.in_proj_weight.sum(), opb=mha.out_proj.bias)
