import torch
x = torch.tensor([2.0, -0.5, 2.0, 3.25, -0.5])
u, c = x.unique(return_counts=True)
u2, inv2 = torch.unique(x, sorted=True, return_inverse=True)
report(u=u, c=c, inv=inv2, bu=torch.tensor([True, False, True]).unique(), cu=torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 2]]), dim=0),
       cui=torch.unique_consecutive(torch.tensor([5, 5, 6, 5]), return_inverse=True)[1], ui8=torch.unique(torch.tensor([3, 1, 3], dtype=torch.int8)).dtype)
