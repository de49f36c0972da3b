import torch
import math

lp = torch.log_softmax(data(6, 4, scale=2.0), -1)
beams = {(): (0.0, -math.inf)}
for t in range(lp.shape[0]):
    nb = {}
    for prefix, (pb, pnb) in beams.items():
        for c in range(lp.shape[1]):
            p = lp[t, c].item()
            if c == 0:
                b_, nb_ = nb.get(prefix, (-math.inf, -math.inf))
                nb[prefix] = (torch.logsumexp(torch.tensor([b_, pb + p, pnb + p]), 0).item(), nb_)
            else:
                new = prefix + (c,)
                b_, nb_ = nb.get(new, (-math.inf, -math.inf))
                if prefix and prefix[-1] == c:
                    nb[new] = (b_, torch.logsumexp(torch.tensor([nb_, pb + p]), 0).item())
                    b2, nb2 = nb.get(prefix, (-math.inf, -math.inf))
                    nb[prefix] = (b2, torch.logsumexp(torch.tensor([nb2, pnb + p]), 0).item())
                else:
                    nb[new] = (b_, torch.logsumexp(torch.tensor([nb_, pb + p, pnb + p]), 0).item())
    beams = dict(sorted(nb.items(), key=lambda kv: -torch.logsumexp(torch.tensor(kv[1]), 0).item())[:3])
best = [list(k) for k in beams]
scores = [round(torch.logsumexp(torch.tensor(v), 0).item(), 4) for v in beams.values()]
report(best=best, scores=scores)
