import torch
a = torch.tensor([-128, -1, 127], dtype=torch.int8)
report(absv=a.abs(), neg=-a, sgn=a.sign(), sq=a * a, sqdt=(a * a).dtype, add=a + a, asum=a.sum(), asumdt=a.sum().dtype,
       amean=a.float().mean(), amax=a.max(), absdt=a.abs().dtype)
