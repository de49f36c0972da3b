import torch
z = torch.complex(torch.tensor([1.0, 0.0, -2.0]), torch.tensor([1.0, 2.0, 0.5]))
w = torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 3.14159265 / 2]))
report(re=z.real, im=z.imag, ab=z.abs(), ang=z.angle(), conj=z.conj().imag.resolve_neg(), mul=torch.view_as_real(z * z), div=torch.view_as_real(z / (1 + 1j)),
       wr=torch.view_as_real(w), dt=z.dtype, vac=torch.view_as_complex(torch.tensor([[1.0, 2.0], [3.0, 4.0]])).imag,
       ex=torch.view_as_real(torch.exp(z)), sq=torch.view_as_real(torch.sqrt(z)), isc=[z.is_complex(), torch.is_complex(z.real)])
