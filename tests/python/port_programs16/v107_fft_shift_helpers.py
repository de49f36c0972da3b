import torch

x = torch.arange(8.0)
X = torch.fft.fft(x)
img = data(4, 6)
F2 = torch.fft.fft2(img)
report(
    fftshift=torch.fft.fftshift(torch.arange(7)), ifftshift=torch.fft.ifftshift(torch.arange(6)), freqs=torch.fft.fftfreq(6, d=0.5),
    rfreqs=torch.fft.rfftfreq(7), mag=X.abs(), ang=X.angle()[:3], irfft=torch.fft.irfft(torch.fft.rfft(x), n=8),
    f2_abs=F2.abs()[1], ifft2=torch.fft.ifft2(F2).real[0], rfftn=torch.fft.rfftn(img, dim=(0, 1)).abs()[:, 0],
    ortho=torch.fft.fft(x, norm="ortho").abs()[:3], hfft=torch.fft.hfft(torch.tensor([1.0, 2.0, 3.0]).to(torch.complex64)),
    shift2=torch.fft.fftshift(img, dim=(-2, -1))[0], conv=torch.fft.irfft(torch.fft.rfft(x, n=16) * torch.fft.rfft(torch.ones(3), n=16), n=16)[:10],
)
