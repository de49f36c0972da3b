import torch

x = torch.arange(12.0).view(3, 4)
adv = x[[0, 2]]
adv[0, 0] = -1
basic = x[0:2]
basic[1, 1] = -2
b = x[x > 9]
b[:] = 0
mask_view = x[:, torch.tensor([True, False, True, False])]
mask_view += 100
rows = x[1]
rows *= 10
idx_list = x[torch.tensor([[0], [2]]), torch.tensor([1, 3])]
ell = x[..., 1]
ell -= 5
neg = x[-1].flip(0)
neg[0] = 77
sel_chain = x[1:][0][1:3]
sel_chain.fill_(9)
y = torch.zeros(4)
y[torch.tensor([0, 0, 2])] += 1
z = torch.zeros(4)
z.index_put_((torch.tensor([0, 0, 2]),), torch.tensor(1.0), accumulate=True)
report(x=x, adv=adv, idx_list=idx_list, y=y, z=z, neg=neg)
