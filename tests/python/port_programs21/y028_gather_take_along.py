import torch

x = data(3, 4, seed=1)
idx = torch.tensor([[3, 0], [1, 1], [2, 0]])
g = torch.gather(x, 1, idx)
logits = data(5, 3, seed=2)
labels = torch.tensor([0, 2, 1, 1, 0])
picked = logits.gather(1, labels.unsqueeze(1)).squeeze(1)
sorted_idx = x.argsort(dim=1)
tad = torch.take_along_dim(x, sorted_idx, dim=1)
tad_flat = torch.take_along_dim(x, torch.tensor([0, 5, 11]))
mx_idx = x.argmax(dim=0, keepdim=True)
xg = x.clone().requires_grad_()
xg.gather(0, torch.tensor([[0, 0, 1, 2], [0, 0, 0, 0]])).sum().backward()
report(g=g, picked=picked, tad=tad, flat=tad_flat, mx=torch.take_along_dim(x, mx_idx, dim=0), grad=xg.grad,
       take=torch.take(x, torch.tensor([[0, 11], [4, 7]])))
