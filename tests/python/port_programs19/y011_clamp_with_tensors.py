import torch
x = torch.linspace(-3, 3, 7)
lo = torch.tensor([-1.0, -2.0, 0.0, 0.0, 0.5, 1.0, -5.0])
hi = torch.tensor([1.0, 0.0, 0.5, 2.0, 0.5, 0.0, 5.0])
report(c=torch.clamp(x, lo, hi), cmin=x.clamp(min=lo), cmax=x.clamp(max=hi), bmin=x.clamp(min=torch.tensor(0.5)),
       cl=torch.clip(x, -1, 1), ci=torch.tensor([1, 5, 9]).clamp(2.5, 6.5), cidt=torch.tensor([1, 5, 9]).clamp(2.5, 6.5).dtype,
       ct=torch.tensor([1, 5, 9]).clamp(torch.tensor([2, 2, 2]), torch.tensor(8)))
