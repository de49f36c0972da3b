import torch

scores = data(3, 6, seed=1)
rel = torch.tensor([[1, 0, 0, 1, 0, 0], [0, 0, 1, 0, 0, 0], [1, 1, 0, 0, 0, 1]]).float()
order = scores.argsort(dim=1, descending=True)
ranked = rel.gather(1, order)
disc = 1.0 / torch.log2(torch.arange(2, 8).float())
dcg = (ranked * disc).sum(1)
ideal = rel.sort(dim=1, descending=True).values
ndcg = dcg / (ideal * disc).sum(1)
hits = ranked[:, :3].sum(1)
first = (ranked == 1).float().argmax(1)
mrr = 1.0 / (first + 1).float()
ranks = scores.argsort(1).argsort(1)
report(order=order, ndcg=ndcg, hits=hits, mrr=mrr, ranks=ranks, prec_at_2=ranked[:, :2].mean(1))
