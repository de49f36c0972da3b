import torch

x = torch.arange(10, dtype=torch.float32)
s1 = torch.stft(x, 8, hop_length=2, window=torch.ones(8), return_complex=True)
s2 = torch.stft(x, 8, hop_length=2, window=torch.ones(8), pad_mode="constant", return_complex=True)
s3 = torch.stft(x, 4, hop_length=3, win_length=3, window=torch.tensor([1.0, 2.0, 1.0]), return_complex=True)
s4 = torch.stft(x.view(1, -1).expand(3, -1) * torch.tensor([[1.0], [2.0], [3.0]]), 6, hop_length=2, window=torch.hann_window(6), center=False, return_complex=True)
report(s1_shape=s1.shape, s1=torch.view_as_real(s1[:, 0]), s2=torch.view_as_real(s2[:, 0]), s3_shape=s3.shape, s3=s3.abs()[:, 1], s4_shape=s4.shape, s4=s4.abs().sum((1, 2)))
