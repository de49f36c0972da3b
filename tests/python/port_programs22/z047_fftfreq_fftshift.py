import torch

report(f8=torch.fft.fftfreq(8), f7=torch.fft.fftfreq(7, d=0.5), rf8=torch.fft.rfftfreq(8, d=0.1),
       shift=torch.fft.fftshift(torch.arange(8)), ishift=torch.fft.ifftshift(torch.fft.fftshift(torch.arange(7))),
       shift2d=torch.fft.fftshift(torch.arange(12).view(3, 4)), shift_dim=torch.fft.fftshift(torch.arange(12).view(3, 4), dim=1),
       f_dtype=torch.fft.fftfreq(4).dtype, f64=torch.fft.fftfreq(4, dtype=torch.float64))
