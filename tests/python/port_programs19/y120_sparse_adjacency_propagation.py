import torch
edges = torch.tensor([[0, 1, 1, 2, 3], [1, 0, 2, 3, 0]])
A = torch.sparse_coo_tensor(edges, torch.ones(5), (4, 4))
deg = torch.sparse.sum(A, 1).to_dense()
x = torch.arange(8.0).view(4, 2)
h = torch.sparse.mm(A, x) / deg.clamp(min=1).unsqueeze(1)
At = A.t().coalesce()
report(deg=deg, h=h, At=At.to_dense(), ai=At.indices(), dense_eq=torch.equal(A.to_dense() @ x, torch.sparse.mm(A, x)), sh=A.shape, spdt=A.dtype)
