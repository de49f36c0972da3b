import torch
z = torch.tensor([1 + 2j, -0.5 + 0j])
report(r=repr(z), s=str(torch.tensor([1.5 - 2j], dtype=torch.complex128)), item=str(z[0].item()), tl=[str(v) for v in z.tolist()])
