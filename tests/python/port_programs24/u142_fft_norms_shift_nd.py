import torch

x = data(4, 6)
F1 = torch.fft.fft(x, dim=-1, norm="forward")
F2 = torch.fft.rfftn(x, norm="ortho")
F3 = torch.fft.fftshift(torch.fft.fft2(x), dim=(-2, -1))
back = torch.fft.ifftshift(F3, dim=(-2, -1))
inv = torch.fft.irfftn(F2, s=x.shape, norm="ortho")
h = torch.fft.ihfft(x[0])
pad = torch.fft.fft(x[0], n=8)
crop = torch.fft.rfft(x[0], n=4)
report(F1=torch.view_as_real(F1[0, :2]), F2_shape=F2.shape, F2=torch.view_as_real(F2[1, 1]), F3=F3.abs()[2], back_ok=torch.allclose(back, torch.fft.fft2(x)),
       inv_ok=torch.allclose(inv, x, atol=1e-5), h=torch.view_as_real(h.resolve_conj()), pad=pad.abs(), crop=crop.abs(), freqs=torch.fft.rfftfreq(7, d=0.5))
