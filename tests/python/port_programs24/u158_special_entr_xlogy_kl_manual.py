import torch
import torch.nn.functional as F

p = torch.tensor([[0.0, 0.3, 0.7], [0.5, 0.5, 0.0]])
q = torch.tensor([[0.1, 0.2, 0.7], [0.25, 0.25, 0.5]])
ent = torch.special.entr(p).sum(1)
kl_xlogy = (torch.special.xlogy(p, p) - torch.special.xlogy(p, q)).sum(1)
kl_F = F.kl_div(q.log(), p, reduction="none").sum(1)
kl_logt = F.kl_div(q.log(), p.clamp(min=1e-12).log(), reduction="batchmean", log_target=True)
js_m = 0.5 * (p + q)
js = 0.5 * (F.kl_div(js_m.log(), p, reduction="none").sum(1) + F.kl_div(js_m.log(), q, reduction="none").sum(1))
report(ent=ent, kl_xlogy=kl_xlogy, kl_F=kl_F, kl_logt=kl_logt.item(), js=js, xlog1py=torch.special.xlog1py(p, q))
