import torch
import torch.nn.functional as F

def load_balancing_loss_func(gate_logits, num_experts, top_k=2, attention_mask=None):
    concatenated = torch.cat([g for g in gate_logits], dim=0)
    routing_weights = F.softmax(concatenated, dim=-1)
    _, selected_experts = torch.topk(routing_weights, top_k, dim=-1)
    expert_mask = F.one_hot(selected_experts, num_experts)
    tokens_per_expert = torch.mean(expert_mask.float(), dim=0)
    router_prob_per_expert = torch.mean(routing_weights, dim=0)
    overall = torch.sum(tokens_per_expert * router_prob_per_expert.unsqueeze(0))
    return overall * num_experts

def router_z_loss(router_logits):
    num_groups, tokens_per_group, _ = router_logits.shape
    log_z = torch.logsumexp(router_logits, dim=-1)
    z_loss = log_z ** 2
    return torch.sum(z_loss) / (num_groups * tokens_per_group)

g1 = data(6, 4, seed=16).requires_grad_()
g2 = data(6, 4, seed=17)
lb = load_balancing_loss_func((g1, g2), 4)
z = router_z_loss(torch.stack([g1, g2]))
(lb + 0.01 * z).backward()
sel = torch.topk(torch.cat([g1, g2]), 1).indices.flatten()
report(lb=lb, z=z, grad=g1.grad, bincount=torch.bincount(sel, minlength=4), frac=torch.bincount(sel, minlength=4).float() / sel.numel())
