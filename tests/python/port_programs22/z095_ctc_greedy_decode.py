import torch

log_probs = data(12, 2, 5, seed=133, scale=2.0).log_softmax(-1)
best = log_probs.argmax(-1).t()
decoded = []
for seq in best:
    collapsed = torch.unique_consecutive(seq)
    decoded.append(collapsed[collapsed != 0].tolist())
u, inv, counts = torch.unique_consecutive(best[0], return_inverse=True, return_counts=True)
def edit_distance(a, b):
    d = torch.zeros(len(a) + 1, len(b) + 1, dtype=torch.long)
    d[:, 0] = torch.arange(len(a) + 1)
    d[0, :] = torch.arange(len(b) + 1)
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + (a[i - 1] != b[j - 1]))
    return d[-1, -1].item()
report(best=best, decoded=decoded, u=u, inv=inv, counts=counts, ed=edit_distance(decoded[0], [1, 2, 3]),
       u2d=torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 3], [2, 3], [1, 1]]), dim=0))
