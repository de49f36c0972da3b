import torch
x = data(2, 3, 4)
report(a=x.sum(dim=(0, 2)), b=x.sum(dim=[0, 2], keepdim=True).shape, c=x.mean((-1, -2)), d=x.sum(1, dtype=torch.float64).dtype,
       e=torch.tensor([1, 2, 3]).sum(dtype=torch.float32), f=x.amax(dim=(0, 1)), g=x.std(dim=(0, 2), unbiased=False), h=x.var(1, keepdim=True, correction=0).shape,
       i=torch.tensor([[1, 2], [3, 4]], dtype=torch.int32).sum(0).dtype, j=x.norm(dim=(1, 2)), k=x.logsumexp(dim=(0, 1)))
