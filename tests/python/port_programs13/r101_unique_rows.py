import torch
x = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 5], [3, 4]])
u, inv, cnt = torch.unique(x, dim=0, return_inverse=True, return_counts=True)
u1 = torch.unique(torch.tensor([3, 1, 2, 3, 1]), sorted=False)
w = torch.bincount(torch.tensor([0, 1, 1, 3]), weights=torch.tensor([0.5, 1.0, 2.0, 0.25]))
hc = torch.histc(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=4, min=0, max=4)
keys = torch.tensor([[2, 1], [1, 3], [2, 0], [1, 1]])
order = torch.argsort(keys[:, 1], stable=True)
order = order[torch.argsort(keys[order, 0], stable=True)]
gcd = torch.gcd(torch.tensor([12, 18]), torch.tensor([8, 27]))
report(u=u, inv=inv, cnt=cnt, u1=sorted(u1.tolist()), w=w, hc=hc, order=order, gcd=gcd, lcm=torch.lcm(torch.tensor([4]), torch.tensor([6])), bw=torch.tensor([5]) | torch.tensor([2]), bn=torch.bitwise_not(torch.tensor([0, 1], dtype=torch.uint8)))
