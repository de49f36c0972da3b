import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
class MoCo(nn.Module):
    def __init__(self, dim=4, K=12, m=0.99, T=0.07):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.arange(dim * K, dtype=torch.float32).view(dim, K).sin(), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))
    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data = pk.data * self.m + pq.data * (1.0 - self.m)
    @torch.no_grad()
    def _enqueue(self, keys):
        b = keys.shape[0]
        ptr = int(self.queue_ptr)
        self.queue[:, ptr:ptr + b] = keys.T
        self.queue_ptr[0] = (ptr + b) % self.K
    def forward(self, xq, xk):
        q = F.normalize(self.encoder_q(xq), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(xk), dim=1)
        l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", [q, self.queue.clone().detach()])
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        self._enqueue(k)
        return logits, labels
model = det(MoCo())
opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.03, momentum=0.9, weight_decay=1e-4)
L = []
for i in range(4):
    x = data(4, 6, seed=i)
    logits, labels = model(x + 0.1, x - 0.1)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
report(L=L, ptr=model.queue_ptr, q=model.queue[:, :3], kw=model.encoder_k[0].bias, acc=(logits.argmax(1) == 0).float().mean())
