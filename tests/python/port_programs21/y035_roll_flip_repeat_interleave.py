import torch

x = torch.arange(12).view(3, 4)
report(r1=torch.roll(x, 1), r2=torch.roll(x, shifts=(1, -1), dims=(0, 1)), r3=x.roll(-2, dims=1),
       f=torch.flip(x, dims=[0, 1]), fl=x.fliplr(), fu=x.flipud(),
       ri=torch.repeat_interleave(torch.tensor([1, 2, 3]), 2),
       ri2=torch.repeat_interleave(x, torch.tensor([1, 0, 2]), dim=0),
       ri3=x.repeat_interleave(2, dim=1), ri4=torch.repeat_interleave(torch.tensor([2, 0, 3])),
       rep=torch.tensor([1, 2]).repeat(2, 3), tile=torch.tile(torch.tensor([[1, 2]]), (2, 2)),
       rot=torch.rot90(x, 1, [0, 1]), rot2=torch.rot90(x, -1))
