import torch

x = data(16).requires_grad_()
X = torch.fft.rfft(x)
target = torch.fft.rfft(torch.sin(torch.arange(16.0)))
loss = (X - target).abs().pow(2).mean()
loss.backward()
g = x.grad.clone()
w = torch.tensor([1.0 + 1.0j, 0.5 - 2.0j], requires_grad=True)
z = torch.tensor([2.0 - 1.0j, 1.0j])
out = (w * z).real.sum() + (w.conj() * z).imag.sum()
out.backward()
y = data(4, 4, seed=3).requires_grad_()
Y = torch.fft.fft2(y)
Y.abs().sum().backward()
report(loss=loss.item(), g=g[:5], wgrad=torch.view_as_real(w.grad), ygrad=y.grad[0], ifftn=torch.fft.ifftn(Y.detach()).real[0],
       irfft2=torch.fft.irfft2(torch.fft.rfft2(y.detach()), s=(4, 4))[1])
