import torch

x = data(10, seed=182)
X = torch.fft.fft(x.to(torch.complex64))
r = {"ihfft": torch.view_as_real(torch.fft.ihfft(x).resolve_conj()), "hfft": torch.fft.hfft(torch.fft.ihfft(x), n=10)}
for norm in ("backward", "forward", "ortho"):
    r[f"fft_{norm}"] = torch.fft.fft(x, norm=norm).abs()[:4]
    r[f"irfft_{norm}"] = torch.fft.irfft(torch.fft.rfft(x, norm=norm), n=10, norm=norm)[:4]
r["fft_n"] = torch.fft.fft(x, n=6).abs()
r["fft_dim"] = torch.fft.fft(data(3, 4, seed=183), dim=0).real[1]
r["rfftn"] = torch.fft.rfftn(data(2, 4, 6, seed=184)).abs()[1, 2]
r["c128"] = torch.fft.fft(x.double()).dtype
z = data(8, seed=185).requires_grad_()
torch.fft.fft(z).real.pow(2).sum().backward()
r["grad"] = z.grad
report(**r)
