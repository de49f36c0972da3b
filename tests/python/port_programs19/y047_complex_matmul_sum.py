import torch
a = torch.tensor([[1 + 2j, 3 - 1j], [0 + 1j, 2 + 0j]])
b = torch.tensor([[1 - 1j], [2 + 2j]])
report(dt=a.dtype, mm=torch.view_as_real(a @ b), s=torch.view_as_real(a.sum()), m=torch.view_as_real(a.mean(0)), ad=torch.view_as_real(a.mH.resolve_conj()),
       ab=(a.abs() ** 2).sum(), vd=torch.view_as_real(torch.vdot(a[0], a[1])), f=torch.view_as_real(a.to(torch.complex128) * 2.0), fdt=(a * 2.0).dtype,
       cdt=(torch.tensor([1.0]) + 1j).dtype)
