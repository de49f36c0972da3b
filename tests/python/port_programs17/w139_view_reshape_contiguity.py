import torch

x = torch.arange(12).view(3, 4)
t = x.t()
errs = []
try:
    t.view(12)
except RuntimeError as e:
    errs.append("view size is not compatible" in str(e) or "contiguous" in str(e))
r = t.reshape(12)
c = t.contiguous().view(2, 6)
nar = x.narrow(1, 1, 2)
report(r=r, c=c, errs=errs, tc=t.is_contiguous(), ts=list(t.stride()), nar=nar, ns=list(nar.stride()), nc=nar.is_contiguous(),
       fl=t.flatten(), us=list(x.unsqueeze(1).stride()), pe=list(x.view(3, 2, 2).permute(2, 0, 1).stride()), sl=list(x[:, ::2].stride()),
       dg=list(x.diagonal().stride()), ex=list(x[:, :1].expand(3, 4).stride()), vw=x[:, 1:3].reshape(6), mv=list(x.view(1, 3, 4).movedim(0, 2).stride()))
