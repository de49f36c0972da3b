import torch
import torch.nn.functional as F

beam, vocab = 3, 5
scores = torch.zeros(beam)
scores[1:] = -1e9
seqs = torch.zeros(beam, 1, dtype=torch.long)
state = data(beam, 4, seed=1)
for step in range(3):
    logp = F.log_softmax(data(beam, vocab, seed=10 + step), dim=-1)
    cand = (scores.unsqueeze(1) + logp).view(-1)
    top, idx = cand.topk(beam)
    origin = idx // vocab
    tok = idx % vocab
    seqs = torch.cat([seqs.index_select(0, origin), tok.unsqueeze(1)], dim=1)
    state = state.index_select(0, origin)
    scores = top
report(seqs=seqs, scores=scores, state=state, div=torch.div(torch.tensor([7, -7]), 2, rounding_mode="floor"),
       trunc=torch.div(torch.tensor([7, -7]), 2, rounding_mode="trunc"))
