import torch
x = data(4, 6, seed=4)
F = torch.fft.fft2(x)
R = torch.fft.rfft2(x)
report(Fabs=F.abs(), Rabs=R.abs(), back=torch.fft.irfft2(R, s=(4, 6)), sh=torch.fft.fftshift(torch.arange(6)), ish=torch.fft.ifftshift(torch.arange(5)),
       fftn=torch.fft.fftn(x, dim=(0,)).abs(), pad=torch.fft.fft(x[0], n=8).abs(), hf=torch.fft.hfft(torch.tensor([1.0, 2.0, 3.0]).to(torch.complex64)))
