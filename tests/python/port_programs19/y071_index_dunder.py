import torch
import operator
lst = list(range(10))
t = torch.tensor(4)
report(a=operator.index(t), b=lst[torch.tensor(2)], c=lst[t:], d="abcdef"[torch.tensor(1)], e=[0] * torch.tensor(3), f=torch.arange(10)[torch.tensor(3)],
       g=range(10)[torch.tensor(7)], h=torch.ones(torch.tensor(2), 3).shape)
