import torch
import torch.nn.functional as F

def fft_conv1d(signal, kernel):
    n = signal.shape[-1] + kernel.shape[-1] - 1
    S = torch.fft.rfft(signal, n=n)
    K = torch.fft.rfft(kernel, n=n)
    return torch.fft.irfft(S * K, n=n)

s = data(1, 20, seed=57)
k = data(1, 5, seed=58)
y = fft_conv1d(s, k)
ref = F.conv1d(F.pad(s, (4, 4)).unsqueeze(0), k.flip(-1).unsqueeze(0)).squeeze(0)
img = data(8, 8, seed=59)
I = torch.fft.fft2(img)
back = torch.fft.ifft2(I).real
rI = torch.fft.rfft2(img)
report(y=y, close=bool(torch.allclose(y, ref, atol=1e-4)), fft2=I.abs()[1, :4], back=bool(torch.allclose(back, img, atol=1e-5)),
       rfft2_shape=rI.shape, irfft2=bool(torch.allclose(torch.fft.irfft2(rI, s=(8, 8)), img, atol=1e-5)),
       fftn=torch.fft.fftn(img, dim=(0,)).real[2, :3])
