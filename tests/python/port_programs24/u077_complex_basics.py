import torch

z = torch.complex(torch.tensor([1.0, 0.0, -2.0]), torch.tensor([1.0, 3.0, 0.5]))
w = torch.tensor([1 + 2j, -1j, 0.5 + 0j])
res = dict(dtype=str(z.dtype), wdtype=str(w.dtype), abs=z.abs(), angle=z.angle(), conj=torch.view_as_real(z.conj().resolve_conj()), prod=torch.view_as_real(z * w),
           div=torch.view_as_real(z / w), mm=torch.view_as_real(z.unsqueeze(0) @ w.unsqueeze(1)), real=z.real, imag=z.imag,
           exp=torch.view_as_real(torch.exp(1j * torch.tensor([0.0, torch.pi / 2]))), sqrt=torch.view_as_real(torch.sqrt(torch.tensor([-4.0 + 0j]))),
           is_complex=z.is_complex(), promote=str((z * 2).dtype), promote_d=str((z.to(torch.complex128) + 1.0).dtype),
           polar=torch.view_as_real(torch.polar(torch.tensor([2.0]), torch.tensor([torch.pi / 3]))), sum=torch.view_as_real(z.sum()),
           item=complex(z[0].item()).imag, tolist=[complex(c).real for c in z.tolist()], vac=torch.view_as_complex(torch.tensor([[1.0, 2.0], [3.0, 4.0]])).abs())
g = z.clone().requires_grad_()
(g.abs() ** 2).sum().backward()
res["grad"] = torch.view_as_real(g.grad)
report(**res)
