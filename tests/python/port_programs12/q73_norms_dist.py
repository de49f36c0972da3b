import torch
a = torch.arange(1.0, 7.0).view(2, 3); b = torch.ones(2, 3)
res = {}
res["norm"] = [torch.norm(a), torch.norm(a, p="fro"), torch.norm(a, dim=1), torch.norm(a, p=1, dim=0), torch.norm(a, p=float("inf")), a.norm(2, dim=-1, keepdim=True), torch.norm(a, p="nuc")]
res["la"] = [torch.linalg.norm(a), torch.linalg.vector_norm(a, ord=float("inf")), torch.linalg.vector_norm(a, ord=0), torch.linalg.vector_norm(a, ord=3, dim=1), torch.linalg.matrix_norm(a, ord="nuc"), torch.linalg.matrix_norm(a, ord=2), torch.linalg.matrix_norm(a, ord=-1), torch.linalg.norm(a, ord=1, dim=1)]
res["dist"] = [torch.dist(a, b), torch.dist(a, b, p=1), torch.dist(a, b, p=0), torch.cdist(a, b, compute_mode="donot_use_mm_for_euclid_dist"), torch.cdist(a.unsqueeze(0), b.unsqueeze(0), p=0.5), torch.nn.functional.pairwise_distance(a, b, p=3, eps=0)]
res["renorm"] = torch.renorm(a, p=2, dim=0, maxnorm=5)
res["cs"] = torch.nn.functional.cosine_similarity(a, b, dim=0)
xr = a.clone().requires_grad_()
(torch.linalg.vector_norm(xr, dim=1).sum() + torch.cdist(xr, b).sum()).backward()
res["g"] = xr.grad
res["cond"] = [torch.linalg.cond(torch.tensor([[2.0, 0.0], [0.0, 0.5]])), torch.linalg.matrix_rank(torch.tensor([[1.0, 2.0], [2.0, 4.0]])), torch.linalg.det(torch.tensor([[1.0, 2.0], [3.0, 4.0]])), torch.linalg.inv(torch.tensor([[2.0, 0.0], [0.0, 4.0]])), torch.linalg.pinv(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))]
report(**res)
