import torch
import torch.nn.functional as F

q = F.normalize(data(5, 4), dim=1)
db = F.normalize(torch.cat([q + 0.1 * data(5, 4, seed=3), data(7, 4, seed=4)]), dim=1)
gt = torch.arange(5)
sim = q @ db.T
topk = sim.topk(3, dim=1).indices
hit = (topk == gt[:, None]).any(1)
rank = (sim > sim[torch.arange(5), gt][:, None]).sum(1)
ap = 1.0 / (rank + 1).float()
d = torch.cdist(q, db)
nn1 = d.argmin(1)
stable = torch.sort(torch.tensor([0.5, 0.1, 0.5, 0.1, 0.3]), stable=True)
desc_stable = torch.sort(torch.tensor([2, 1, 2, 3, 1]), descending=True, stable=True)
report(recall3=hit.float().mean().item(), rank=rank, mAP=ap.mean().item(), nn1=nn1, topk=topk,
       stable_idx=stable.indices, desc_idx=desc_stable.indices, cdist_mm=torch.cdist(q, db, compute_mode="use_mm_for_euclid_dist")[0, :3])
