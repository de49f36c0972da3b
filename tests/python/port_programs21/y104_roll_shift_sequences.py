import torch

ids = torch.tensor([[5, 6, 7, 8], [1, 2, 3, 0]])
labels = ids.roll(-1, dims=1)
labels[:, -1] = -100
shifted = ids.new_zeros(ids.shape)
shifted[:, 1:] = ids[:, :-1].clone()
shifted[:, 0] = 101
img = torch.arange(16.0).view(1, 1, 4, 4)
report(labels=labels, shifted=shifted, rollimg=torch.roll(img, shifts=(1, 2), dims=(2, 3))[0, 0],
       flipimg=torch.flip(img, [3])[0, 0], circ=torch.roll(torch.arange(5), 7), new_full=ids.new_full((2,), 3),
       new_tensor=ids.new_tensor([1.5]).dtype, new_ones=ids.new_ones(1, 2, dtype=torch.float32))
