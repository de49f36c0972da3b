import torch
import torch.nn.functional as F

ctx_h = data(1, 5, 4, seed=1)
cand_h = data(3, 4, seed=2)
cand_p = torch.tensor([0.5, 0.3, 0.2])
alpha = 0.6
sim = F.cosine_similarity(cand_h[:, None, :], ctx_h, dim=-1)
degen = sim.max(-1).values
score = (1 - alpha) * cand_p - alpha * degen
report(sim=sim, score=score, pick=score.argmax().item())
