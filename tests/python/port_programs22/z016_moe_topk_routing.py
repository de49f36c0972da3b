import torch
import torch.nn as nn
import torch.nn.functional as F

class MoE(nn.Module):
    def __init__(self, d=6, n_experts=4, top_k=2):
        super().__init__()
        self.gate = nn.Linear(d, n_experts, bias=False)
        self.experts = nn.ModuleList([nn.Sequential(nn.Linear(d, 8), nn.GELU(), nn.Linear(8, d)) for _ in range(n_experts)])
        self.top_k = top_k
        self.n = n_experts

    def forward(self, hidden_states):
        b, s, d = hidden_states.shape
        hidden_states = hidden_states.view(-1, d)
        router_logits = self.gate(hidden_states)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        routing_weights = routing_weights.to(hidden_states.dtype)
        final = torch.zeros((b * s, d), dtype=hidden_states.dtype)
        expert_mask = F.one_hot(selected_experts, num_classes=self.n).permute(2, 1, 0)
        for e in range(self.n):
            idx, top_x = torch.where(expert_mask[e])
            current = hidden_states[None, top_x].reshape(-1, d)
            out = self.experts[e](current) * routing_weights[top_x, idx, None]
            final.index_add_(0, top_x, out.to(hidden_states.dtype))
        return final.reshape(b, s, d), router_logits, selected_experts

m = det(MoE(), seed=13, scale=0.5)
x = data(2, 5, 6, seed=14)
y, logits, sel = m(x)
y.sum().backward()
report(y=y[1], sel=sel, counts=torch.bincount(sel.flatten(), minlength=4), gate_grad=m.gate.weight.grad,
       e0_grad=m.experts[0][0].weight.grad.abs().sum())
