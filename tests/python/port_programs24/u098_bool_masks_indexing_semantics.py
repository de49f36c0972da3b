import torch

x = torch.arange(12.0).view(3, 4)
m = x % 3 == 0
sel = x[m]
x2 = x.clone()
x2[m] = -1
x3 = x.clone()
x3[x3 > 5] *= 10
rows = x[torch.tensor([True, False, True])]
cols = x[:, torch.tensor([False, True, True, False])]
both = x[torch.tensor([0, 2])][:, torch.tensor([1, 3])]
adv = x[torch.tensor([0, 2]), torch.tensor([1, 3])]
nz = m.nonzero()
nz_t = m.nonzero(as_tuple=True)
w = torch.where(m)
cnt = m.sum(dim=1)
anyr = m.any(dim=1)
neg_idx = x[-1, -2]
bool_scalar = x[torch.tensor(True)]
ell = x[..., None].shape
none_idx = x[None, 1].shape
report(sel=sel, x2=x2, x3=x3, rows=rows, cols=cols, both=both, adv=adv, nz=nz, nz_t=list(nz_t), w=list(w), cnt=cnt, cnt_dtype=cnt.dtype, anyr=anyr,
       neg=neg_idx.item(), bs=bool_scalar.shape, ell=ell, none_idx=none_idx, masked_select=torch.masked_select(x, m).shape)
