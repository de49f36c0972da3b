import torch

z = torch.tensor([1 + 2j, -0.5 + 0j, 3.25 - 1j])
report(repr=repr(z), repr_scalar=repr(z[0]), dtype_int=(z * torch.tensor([1, 2, 3])).dtype, dtype_f64=(z + torch.tensor([1.0], dtype=torch.float64)).dtype,
       dtype_bool=(z * torch.tensor([True, False, True])).dtype, abs_dtype=z.abs().dtype, angle_deg=torch.rad2deg(z.angle()), real_view=torch.view_as_real(z).shape,
       c128=repr(torch.tensor([1j], dtype=torch.complex128)), eq=(z == torch.tensor([1 + 2j, 0j, 3.25 - 1j])).tolist(), sum=torch.view_as_real(z.sum()),
       mean=torch.view_as_real(z.mean()), prod=torch.view_as_real(z.prod()))
