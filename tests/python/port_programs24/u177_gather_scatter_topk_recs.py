import torch

scores = data(3, 6)
seen = torch.tensor([[0, 2], [1, 1], [5, 3]])
masked = scores.scatter(1, seen, float("-inf"))
top = masked.topk(2, dim=1)
picked = scores.gather(1, top.indices)
hits = torch.tensor([[2], [4], [0]])
hit_at2 = (top.indices == hits).any(1)
ranks = (scores > scores.gather(1, hits)).sum(1) + 1
ndcg = (1.0 / torch.log2(ranks.float() + 1))
report(masked_inf=torch.isinf(masked).sum(1), top=top.indices, picked=picked, hit_at2=hit_at2, ndcg=ndcg, scatter_add=torch.zeros(3, 6).scatter_add(1, seen, torch.ones(3, 2)))
