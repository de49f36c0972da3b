import torch
import torch.nn as nn
import torch.nn.functional as F


class Dec(nn.Module):
    def __init__(self, V=10, H=8):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.gru = nn.GRU(H, H, batch_first=True)
        self.out = nn.Linear(H, V)

    def step(self, tok, h):
        o, h = self.gru(self.emb(tok).unsqueeze(1), h)
        return F.log_softmax(self.out(o.squeeze(1)), -1), h


def beam_search(dec, h0, bos=1, eos=2, beam=3, max_len=6):
    beams = [(0.0, [bos], h0)]
    finished = []
    for _ in range(max_len):
        cand = []
        for score, seq, h in beams:
            lp, h2 = dec.step(torch.tensor([seq[-1]]), h)
            top_lp, top_i = lp[0].topk(beam)
            for l, i in zip(top_lp.tolist(), top_i.tolist()):
                cand.append((score + l, seq + [i], h2))
        cand.sort(key=lambda c: c[0], reverse=True)
        beams = []
        for c in cand[:beam]:
            (finished if c[1][-1] == eos else beams).append(c)
        if not beams:
            break
    finished.extend(beams)
    finished.sort(key=lambda c: c[0] / len(c[1]), reverse=True)
    return [(round(s, 4), seq) for s, seq, _ in finished[:beam]]


dec = det(Dec(), scale=0.5)
with torch.no_grad():
    h0 = torch.tanh(data(1, 1, 8))
    res = beam_search(dec, h0)
    lp, h = dec.step(torch.tensor([1, 3]), h0.repeat(1, 2, 1))
report(res=res, lp=lp.exp().sum(-1), h=h.shape)
