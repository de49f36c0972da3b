import torch
import torch.nn.functional as F

B, V, S, ext = 2, 6, 4, 2
vocab_dist = F.softmax(data(B, V), -1)
attn = F.softmax(data(B, S, seed=3), -1)
src_ext_ids = torch.tensor([[1, 6, 3, 7], [0, 0, 2, 6]])
p_gen = torch.sigmoid(torch.tensor([[0.3], [-1.2]]))
final = torch.cat([p_gen * vocab_dist, torch.zeros(B, ext)], dim=1)
final = final.scatter_add(1, src_ext_ids, (1 - p_gen) * attn)
target = torch.tensor([6, 2])
nll = -torch.log(final.gather(1, target.unsqueeze(1)).squeeze(1) + 1e-12)
cov = torch.zeros(B, S)
cov_loss = 0.0
for step in range(3):
    a = F.softmax(data(B, S, seed=10 + step), -1)
    cov_loss = cov_loss + torch.min(a, cov).sum(1)
    cov = cov + a
report(final=final, sums=final.sum(1), nll=nll, cov_loss=cov_loss, pred=final.argmax(1))
