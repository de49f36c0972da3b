import torch
import torch.nn.functional as F
T = 5
scores = data(2, T, T)
causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
m1 = scores.masked_fill(~causal, float("-inf"))
p1 = F.softmax(m1, dim=-1)
mask_u = torch.triu(torch.ones(T, T), diagonal=1).bool()
m2 = scores.masked_fill(mask_u, -1e9).softmax(-1)
lengths = torch.tensor([3, 5])
pad_mask = torch.arange(T)[None, :] < lengths[:, None]
x = data(2, T, 4, seed=3)
masked_mean = (x * pad_mask.unsqueeze(-1)).sum(1) / pad_mask.sum(1, keepdim=True)
selected = x[pad_mask]
x2 = x.clone(); x2[~pad_mask] = 0.0
both = pad_mask.unsqueeze(1) & causal.unsqueeze(0)
key_pad = ~pad_mask
att = scores.masked_fill(key_pad[:, None, :], float("-inf")).softmax(-1)
where = torch.where(pad_mask.unsqueeze(-1), x, torch.zeros_like(x))
neg = torch.where(x > 0, x, 0.1 * x)
cnt = (x > 0).sum(); anym = (x > 2).any(); allm = pad_mask.all(dim=1)
xor = pad_mask ^ causal[:2]; notm = torch.logical_not(pad_mask); orm = torch.logical_or(pad_mask, causal[:2])
ltri = torch.tril(pad_mask.unsqueeze(1).expand(2, T, T))
inv = (1 - pad_mask.long()) * -10000
mf_ = x.masked_fill(x < 0, 0).sum()
report(p1=p1[0], m2=m2[1, 1], mm=masked_mean, sel=selected.shape, x2=x2.sum(), both=both.dtype, both_sum=both.sum(), att=att[0, 0],
       where=where.sum(), neg=neg.sum(), cnt=cnt, anym=anym, allm=allm, xor=xor, notm=notm.dtype, orm=orm.sum(), ltri=ltri.dtype,
       ltri_sum=ltri.sum(), inv=inv, mf=mf_, cdt=causal.dtype, tdt=torch.tril(torch.ones(2, 2, dtype=torch.bool)).dtype,
       idx=x[0][causal[0]].shape, cs=causal.sum(-1), nz=causal.nonzero().shape)
