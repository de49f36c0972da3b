import math
import torch
import torch.nn as nn

class BertSelfAttention(nn.Module):
    def __init__(self, hidden=8, heads=2):
        super().__init__()
        self.num_attention_heads = heads
        self.attention_head_size = hidden // heads
        self.all_head_size = hidden
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)

    def transpose_for_scores(self, x):
        new_x_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        x = x.view(new_x_shape)
        return x.permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask=None):
        q = self.transpose_for_scores(self.query(hidden_states))
        k = self.transpose_for_scores(self.key(hidden_states))
        v = self.transpose_for_scores(self.value(hidden_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.attention_head_size)
        if attention_mask is not None:
            scores = scores + attention_mask
        probs = nn.functional.softmax(scores, dim=-1)
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        new_shape = ctx.size()[:-2] + (self.all_head_size,)
        return ctx.view(new_shape), probs

m = det(BertSelfAttention(), seed=5)
x = data(2, 5, 8, seed=6)
mask = torch.tensor([[1, 1, 1, 1, 0], [1, 1, 0, 0, 0]])[:, None, None, :].float()
mask = (1.0 - mask) * torch.finfo(torch.float32).min
opt = torch.optim.AdamW(m.parameters(), lr=1e-2, weight_decay=0.01)
losses = []
for _ in range(3):
    out, probs = m(x, mask)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
report(losses=losses, out=out[1], probs=probs[1, 0], size_type=type(x.size()[:-1] + (2, 4)).__name__)
