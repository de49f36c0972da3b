import torch
import torch.nn as nn

edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 5, 5], [1, 0, 2, 1, 4, 3, 3, 4]])
batch = torch.tensor([0, 0, 0, 1, 1, 1])
x = data(6, 3, seed=129)
num_graphs = int(batch.max()) + 1
deg = torch.bincount(edge_index[1], minlength=6)
src, dst = edge_index
agg = torch.zeros_like(x).index_add_(0, dst, x[src]) / deg.clamp(min=1).unsqueeze(1)
mlp = det(nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 4)), seed=130)
h = mlp(torch.cat([x, agg], dim=1))
sum_pool = torch.zeros(num_graphs, 4).index_add_(0, batch, h)
mean_pool = sum_pool / torch.bincount(batch).unsqueeze(1)
max_pool = torch.full((num_graphs, 4), -float("inf")).scatter_reduce(0, batch.unsqueeze(1).expand(-1, 4), h, "amax")
head = det(nn.Linear(8, 2), seed=131)
logits = head(torch.cat([mean_pool, max_pool], 1))
loss = nn.functional.cross_entropy(logits, torch.tensor([1, 0]))
loss.backward()
adj = torch.zeros(6, 6).index_put_((src, dst), torch.ones(8), accumulate=True)
report(deg=deg, agg=agg, mean_pool=mean_pool, max_pool=max_pool, loss=loss, g=head.weight.grad, adj_sum=adj.sum(1),
       sparse=torch.sparse_coo_tensor(edge_index, torch.ones(8), (6, 6)).to_dense().sum(0))
