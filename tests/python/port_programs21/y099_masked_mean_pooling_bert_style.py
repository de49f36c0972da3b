import torch
import torch.nn.functional as F

tok = data(2, 5, 4, seed=1)
attn = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]])
m = attn.unsqueeze(-1).expand(tok.size()).float()
mean = torch.sum(tok * m, 1) / torch.clamp(m.sum(1), min=1e-9)
tok_masked = tok.masked_fill(attn.unsqueeze(-1) == 0, -1e9)
mx = tok_masked.max(dim=1).values
ext = (1.0 - attn[:, None, None, :].float()) * torch.finfo(torch.float32).min
emb = F.normalize(mean, p=2, dim=1)
report(mean=mean, mx=mx, ext=ext[1, 0, 0], ext0=ext[0, 0, 0], emb=emb, sim=emb @ emb.T)
