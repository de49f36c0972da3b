import torch
import torch.nn as nn
import torch.nn.functional as F

class MLMHead(nn.Module):
    def __init__(self, hidden, vocab, emb_weight):
        super().__init__()
        self.dense = nn.Linear(hidden, hidden)
        self.LayerNorm = nn.LayerNorm(hidden)
        self.decoder = nn.Linear(hidden, vocab, bias=False)
        self.bias = nn.Parameter(torch.zeros(vocab))
        self.decoder.weight = emb_weight
        self.decoder.bias = self.bias

    def forward(self, h):
        h = self.LayerNorm(F.gelu(self.dense(h)))
        return self.decoder(h)

class Pooler(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.dense = nn.Linear(hidden, hidden)
        self.activation = nn.Tanh()

    def forward(self, hidden_states):
        return self.activation(self.dense(hidden_states[:, 0]))

emb = nn.Embedding(12, 6)
head = MLMHead(6, 12, emb.weight)
pool = Pooler(6)
model = det(nn.ModuleDict({"emb": emb, "head": head, "pool": pool}), seed=4)
ids = torch.tensor([[1, 4, 7, 2], [3, 3, 5, 11]])
labels = torch.tensor([[-100, 4, -100, -100], [-100, -100, 6, 10]])
h = model["emb"](ids)
logits = model["head"](h)
loss = F.cross_entropy(logits.view(-1, 12), labels.view(-1))
pooled = model["pool"](h)
(loss + pooled.pow(2).mean()).backward()
report(loss=loss, pooled=pooled, tied=model["head"].decoder.weight is model["emb"].weight,
       n_params=sum(p.numel() for p in model.parameters()), grad=emb.weight.grad[4],
       names=[n for n, _ in model.named_parameters()], bias_grad=head.bias.grad)
