import torch
import torch.nn.functional as F

queries = F.normalize(data(4, 6), dim=1)
keys = F.normalize(data(10, 6, seed=3), dim=-1)
sim = queries @ keys.T
vals, idx = sim.topk(3, dim=1, largest=True, sorted=True)
lows, lidx = torch.topk(sim, 2, dim=1, largest=False)
relevant = torch.tensor([2, 5, 7, 0])
hit = (idx == relevant[:, None]).any(1)
ranks = (sim > sim.gather(1, relevant[:, None])).sum(1) + 1
mrr = (1.0 / ranks.float()).mean()
kth = torch.kthvalue(sim, 3, dim=1)
srt, order = torch.sort(sim, dim=1, descending=True, stable=True)
report(vals=vals, idx=idx, lows=lows, lidx=lidx, hit=hit, ranks=ranks, mrr=mrr, kth=kth.values, kthi=kth.indices, order=order[:, :4],
       msort=torch.msort(sim[:, :3]), cdist=torch.cdist(queries, keys[:3]))
