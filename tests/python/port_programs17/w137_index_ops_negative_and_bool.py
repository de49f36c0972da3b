import torch

x = torch.arange(24).view(2, 3, 4)
report(a=x[-1, -2], b=x[..., -1], c=x[:, [0, -1]], d=x[[True, False]], e=x[:, :, [True, False, True, False]], f=x[1, [2, 0], [3, 1]],
       g=x[:, None, 1].shape, h=x[[[0], [1]], [[1, 2]]], i=x[torch.tensor([1, 0])][:, 0, 0], j=x[..., None].shape, k=x[1:, ::2, 1::2],
       l=x.flatten()[torch.tensor([[0, 5], [23, -1]])], m=x[x % 5 == 0], n=x[0, :, torch.tensor(2)], o=x[:, -1:].shape)
