import torch
x = torch.arange(12).view(3, 4)
report(r90=torch.rot90(x), r90k=torch.rot90(x, 2, [0, 1]), roll=torch.roll(x, 1, 1), roll2=torch.roll(x, shifts=(1, -1), dims=(0, 1)), rollf=torch.roll(x, 5),
       tril=x.tril(-1), triu=x.triu(1), de=torch.diag_embed(torch.tensor([[1, 2], [3, 4]])), dg=torch.diagonal(x, 1), dgf=torch.diag(torch.tensor([1, 2]), -1),
       ri=torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([2, 3])), ri2=x[:2, :2].repeat_interleave(2, dim=0), ti=x.tile((1, 2)).shape, fl=x.fliplr()[0], fu=x.flipud()[0])
