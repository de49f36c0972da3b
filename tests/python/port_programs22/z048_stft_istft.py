import torch

sig = data(2, 64, seed=56)
win = torch.hann_window(16)
S = torch.stft(sig, n_fft=16, hop_length=4, win_length=16, window=win, return_complex=True)
rec = torch.istft(S, n_fft=16, hop_length=4, win_length=16, window=win, length=64)
S2 = torch.stft(sig[0], n_fft=16, hop_length=8, window=torch.hamming_window(16), center=False, return_complex=True)
S3 = torch.stft(sig[0], n_fft=16, hop_length=4, window=win, normalized=True, onesided=True, pad_mode="constant", return_complex=True)
report(shape=S.shape, mag=S.abs()[0, :, 3], close=bool(torch.allclose(rec, sig, atol=1e-4)), s2=S2.abs()[:, 1], s2_shape=S2.shape,
       s3=S3.abs()[2, :4], phase=S.angle()[1, 2, :4])
