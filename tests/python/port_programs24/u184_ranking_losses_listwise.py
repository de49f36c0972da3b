import torch
import torch.nn.functional as F

scores = data(2, 5)
rel = torch.tensor([[3.0, 2.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 2.0, 3.0]])
listnet = -(F.softmax(rel, 1) * F.log_softmax(scores, 1)).sum(1).mean()
order = rel.argsort(1, descending=True)
s_sorted = scores.gather(1, order)
listmle = (torch.logcumsumexp(s_sorted.flip(1), 1).flip(1) - s_sorted).sum(1).mean()
diff = scores[:, :, None] - scores[:, None, :]
pref = (rel[:, :, None] > rel[:, None, :]).float()
ranknet = (F.softplus(-diff) * pref).sum() / pref.sum()
gains = (2 ** rel - 1)
disc = 1 / torch.log2(torch.arange(2, 7).float())
dcg = (gains.gather(1, scores.argsort(1, descending=True)) * disc).sum(1)
idcg = (gains.sort(1, descending=True).values * disc).sum(1)
report(listnet=listnet.item(), listmle=listmle.item(), ranknet=ranknet.item(), ndcg=dcg / idcg)
