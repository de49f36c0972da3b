import torch

cat = torch.tensor([0, 1, 1, 2, 2, 2, 0, 3])
y = torch.tensor([1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0])
n = torch.bincount(cat, minlength=4).float()
s = torch.bincount(cat, weights=y, minlength=4)
prior = y.mean()
m = 2.0
enc = (s + m * prior) / (n + m)
loo = (s[cat] - y + m * prior) / (n[cat] - 1 + m)
report(n=n, s=s, enc=enc, loo=loo, sdt=s.dtype, ndt=torch.bincount(cat).dtype)
