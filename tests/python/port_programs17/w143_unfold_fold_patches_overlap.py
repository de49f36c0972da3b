import torch
import torch.nn.functional as F

x = data(1, 2, 5, 6, seed=1)
cols = F.unfold(x, kernel_size=(3, 2), dilation=1, padding=(1, 0), stride=(2, 2))
back = F.fold(cols, output_size=(5, 6), kernel_size=(3, 2), padding=(1, 0), stride=(2, 2))
ones = F.fold(F.unfold(torch.ones_like(x), 3, padding=1), (5, 6), 3, padding=1)
avg = F.fold(F.unfold(x, 3, padding=1), (5, 6), 3, padding=1) / ones
w = data(4, 2, 3, 2, seed=2)
conv = (w.view(4, -1) @ cols).view(1, 4, 3, 3)
ref = F.conv2d(x, w, padding=(1, 0), stride=2)
report(cols=cols.shape, back=back[0, 0], ones=ones[0, 0], avg=torch.allclose(avg, x, atol=1e-6), conv=torch.allclose(conv, ref, atol=1e-5),
       um=torch.nn.Unfold(2, stride=2)(x).shape)
