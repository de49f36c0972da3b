import torch
import torch.nn.functional as F
scores = data(6)
rel = torch.tensor([3.0, 2.0, 3.0, 0.0, 1.0, 2.0])
diff = scores.unsqueeze(1) - scores.unsqueeze(0)
pref = (rel.unsqueeze(1) > rel.unsqueeze(0)).float()
ranknet = (F.binary_cross_entropy_with_logits(diff, pref, reduction="none") * (rel.unsqueeze(1) != rel.unsqueeze(0)).float()).sum() / (rel.unsqueeze(1) != rel.unsqueeze(0)).sum()
listnet = -(F.softmax(rel, 0) * F.log_softmax(scores, 0)).sum()
order = scores.argsort(descending=True)
gains = (2 ** rel[order] - 1) / torch.log2(torch.arange(2, 8).float())
ideal = (2 ** rel.sort(descending=True).values - 1) / torch.log2(torch.arange(2, 8).float())
ndcg = gains.sum() / ideal.sum()
mrr = 1.0 / (torch.nonzero(rel[order] == rel.max())[0, 0] + 1).float()
report(ranknet=ranknet, listnet=listnet, ndcg=ndcg, mrr=mrr, order=order)
