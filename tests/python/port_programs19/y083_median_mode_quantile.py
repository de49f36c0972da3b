import torch
x = torch.tensor([[3.0, 1.0, 4.0, 1.0], [5.0, 9.0, 2.0, 6.0]])
md = x.median(1)
mo = torch.tensor([1, 2, 2, 3, 3]).mode()
q = torch.tensor([1.0, 2.0, 3.0, 4.0])
report(med_all=x.median(), mdv=md.values, mdi=md.indices, mov=mo.values, moi=mo.indices, ql=torch.quantile(q, 0.4), qs=[torch.quantile(q, 0.4, interpolation=m) for m in ("lower", "higher", "nearest", "midpoint")],
       qv=torch.quantile(x, torch.tensor([0.25, 0.75]), dim=1, keepdim=True), modd=torch.mode(x, 1).values)
