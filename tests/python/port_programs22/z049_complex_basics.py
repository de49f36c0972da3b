import torch

z = torch.complex(torch.tensor([1.0, -2.0, 0.5]), torch.tensor([0.5, 1.0, -3.0]))
w = torch.tensor([1 + 2j, 3 - 1j, -1j])
r = z * w
report(dtype=z.dtype, wdtype=w.dtype, prod_real=r.real, prod_imag=r.imag, abs=z.abs(), angle=z.angle(),
       conj=torch.view_as_real(z.conj().resolve_conj()), vr=torch.view_as_real(w), exp=torch.view_as_real(torch.exp(z)),
       div=torch.view_as_real(z / w), is_complex=z.is_complex(), sum=torch.view_as_real(z.sum()),
       matmul=torch.view_as_real(z.view(3, 1) @ w.view(1, 3))[0], polar=torch.view_as_real(torch.polar(z.abs(), z.angle())),
       cfloat=torch.view_as_real(torch.ones(2, dtype=torch.cfloat) * 2j), real_of_float=torch.tensor([1.5]).real,
       isreal=torch.isreal(torch.tensor([1 + 0j, 1 + 1j])), sqrt=torch.view_as_real(torch.sqrt(z)))
