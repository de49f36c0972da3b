import torch
import torch.nn as nn
from torch.nn import functional as F


class Head(nn.Module):
    def __init__(self, n_embd, head_size, block_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k, q = self.key(x), self.query(x)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-1)
        return wei @ self.value(x)


class BigramLM(nn.Module):
    def __init__(self, vocab=11, n_embd=8, block_size=6):
        super().__init__()
        self.block_size = block_size
        self.tok = nn.Embedding(vocab, n_embd)
        self.pos = nn.Embedding(block_size, n_embd)
        self.heads = nn.ModuleList([Head(n_embd, n_embd // 2, block_size) for _ in range(2)])
        self.proj = nn.Linear(n_embd, n_embd)
        self.ln = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        x = self.tok(idx) + self.pos(torch.arange(T))
        x = x + self.proj(torch.cat([h(x) for h in self.heads], dim=-1))
        logits = self.lm_head(self.ln(x))
        if targets is None:
            return logits, None
        B, T, C = logits.shape
        return logits, F.cross_entropy(logits.view(B * T, C), targets.view(B * T))

    @torch.no_grad()
    def generate(self, idx, max_new_tokens):
        for _ in range(max_new_tokens):
            logits, _ = self(idx[:, -self.block_size:])
            idx_next = logits[:, -1, :].argmax(-1, keepdim=True)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx


torch.manual_seed(1337)
model = det(BigramLM(), scale=0.3)
cmodel = torch.compile(model)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
data_ = ints(11, 60)
hist = []
for it in range(6):
    ix = torch.tensor([0, 10, 20, 30]) + it
    xb = torch.stack([data_[i:i + 6] for i in ix])
    yb = torch.stack([data_[i + 1:i + 7] for i in ix])
    logits, loss = cmodel(xb, yb)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    hist.append(loss.item())
model.eval()
out = model.generate(torch.zeros((1, 1), dtype=torch.long), 8)
report(hist=hist, out=out)
