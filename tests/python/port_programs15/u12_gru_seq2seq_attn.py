import random
import torch
import torch.nn as nn
import torch.nn.functional as F

SOS, EOS = 0, 1


class Encoder(nn.Module):
    def __init__(self, vocab, hid):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hid)
        self.gru = nn.GRU(hid, hid, batch_first=True)

    def forward(self, src):
        return self.gru(self.embedding(src))


class BahdanauAttention(nn.Module):
    def __init__(self, hid):
        super().__init__()
        self.Wa = nn.Linear(hid, hid)
        self.Ua = nn.Linear(hid, hid)
        self.Va = nn.Linear(hid, 1)

    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys))).squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        return torch.bmm(weights, keys), weights


class Decoder(nn.Module):
    def __init__(self, hid, vocab):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hid)
        self.attention = BahdanauAttention(hid)
        self.gru = nn.GRU(2 * hid, hid, batch_first=True)
        self.out = nn.Linear(hid, vocab)

    def forward(self, enc_out, hidden, target=None, max_len=5):
        b = enc_out.size(0)
        inp = torch.empty(b, 1, dtype=torch.long).fill_(SOS)
        outs, attns = [], []
        for i in range(max_len):
            emb = self.embedding(inp)
            ctx, w = self.attention(hidden.permute(1, 0, 2), enc_out)
            o, hidden = self.gru(torch.cat((emb, ctx), dim=2), hidden)
            o = self.out(o)
            outs.append(o)
            attns.append(w)
            if target is not None:
                inp = target[:, i].unsqueeze(1)
            else:
                _, top = o.topk(1)
                inp = top.squeeze(-1).detach()
        return F.log_softmax(torch.cat(outs, 1), -1), hidden, torch.cat(attns, 1)


enc, dec = det(Encoder(12, 8), seed=1), det(Decoder(8, 12), seed=2)
src = ints(12, 3, 6)
tgt = ints(12, 3, 5, seed=5)
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=0.01)
crit = nn.NLLLoss()
losses = []
for ep in range(3):
    eo, eh = enc(src)
    logp, _, _ = dec(eo, eh, tgt)
    loss = crit(logp.view(-1, logp.size(-1)), tgt.view(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
with torch.no_grad():
    eo, eh = enc(src)
    logp, _, attn = dec(eo, eh)
report(losses=losses, decoded=logp.argmax(-1), attn_sum=attn.sum(-1), attn_shape=attn.shape)
