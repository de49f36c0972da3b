import torch
import torch.nn as nn
import torch.nn.functional as F
class Encoder(nn.Module):
    def __init__(self, V, E, H):
        super().__init__(); self.emb = nn.Embedding(V, E); self.rnn = nn.GRU(E, H, bidirectional=True, batch_first=True); self.fc = nn.Linear(2 * H, H)
    def forward(self, src):
        out, h = self.rnn(self.emb(src))
        hidden = torch.tanh(self.fc(torch.cat((h[-2, :, :], h[-1, :, :]), dim=1)))
        return out, hidden
class Attention(nn.Module):
    def __init__(self, H):
        super().__init__(); self.attn = nn.Linear(3 * H, H); self.v = nn.Linear(H, 1, bias=False)
    def forward(self, hidden, enc, mask):
        L = enc.shape[1]
        hidden = hidden.unsqueeze(1).repeat(1, L, 1)
        energy = torch.tanh(self.attn(torch.cat((hidden, enc), dim=2)))
        a = self.v(energy).squeeze(2).masked_fill(mask == 0, -1e10)
        return F.softmax(a, dim=1)
class Decoder(nn.Module):
    def __init__(self, V, E, H):
        super().__init__(); self.attention = Attention(H); self.emb = nn.Embedding(V, E); self.rnn = nn.GRU(2 * H + E, H, batch_first=True); self.fc_out = nn.Linear(3 * H + E, V)
    def forward(self, inp, hidden, enc, mask):
        e = self.emb(inp.unsqueeze(1))
        a = self.attention(hidden, enc, mask).unsqueeze(1)
        weighted = torch.bmm(a, enc)
        out, hidden = self.rnn(torch.cat((e, weighted), dim=2), hidden.unsqueeze(0))
        pred = self.fc_out(torch.cat((out.squeeze(1), weighted.squeeze(1), e.squeeze(1)), dim=1))
        return pred, hidden.squeeze(0), a.squeeze(1)
V, E, H = 12, 6, 5
enc, dec = det(Encoder(V, E, H), scale=0.3), det(Decoder(V, E, H), seed=1, scale=0.3)
src = ints(10, 3, 5) + 2; src[2, 3:] = 0
trg = ints(10, 3, 4, seed=3) + 2; trg[:, 0] = 1
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=5e-3)
hist = []
for _ in range(4):
    opt.zero_grad()
    enc_out, hidden = enc(src)
    mask = src != 0
    outputs = torch.zeros(3, 4, V)
    inp = trg[:, 0]
    for t in range(1, 4):
        pred, hidden, att = dec(inp, hidden, enc_out, mask)
        outputs[:, t] = pred
        inp = trg[:, t]
    loss = F.cross_entropy(outputs[:, 1:].reshape(-1, V), trg[:, 1:].reshape(-1))
    loss.backward(); nn.utils.clip_grad_norm_(params, 1.0); opt.step(); hist.append(loss.item())
report(hist=hist, att=att, outputs=outputs[0, 1])
