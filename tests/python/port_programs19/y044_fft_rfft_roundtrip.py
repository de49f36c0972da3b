import torch
x = data(8)
X = torch.fft.fft(x)
R = torch.fft.rfft(x)
report(Xr=X.real, Xi=X.imag, Rr=R.real, Ri=R.imag, back=torch.fft.irfft(R, n=8), ifft=torch.fft.ifft(X).real, dt=X.dtype, Rshape=R.shape,
       ortho=torch.fft.fft(x, norm="ortho").abs(), freq=torch.fft.fftfreq(8), rfreq=torch.fft.rfftfreq(8, d=0.5))
