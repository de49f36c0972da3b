import torch
import torch.nn.functional as F

q = data(2, 5, seed=1)
docs = data(6, 5, seed=2)
sim = F.cosine_similarity(q[:, None, :], docs[None, :, :], dim=-1)
sim2 = F.normalize(q, dim=-1) @ F.normalize(docs, dim=-1).T
vals, idx = sim.topk(3, dim=-1)
d = torch.cdist(q, docs)
report(sim=sim, close=torch.allclose(sim, sim2, atol=1e-6), vals=vals, idx=idx, d=d, pd=F.pairwise_distance(q, docs[:2]))
