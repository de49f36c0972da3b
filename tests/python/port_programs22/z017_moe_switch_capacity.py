import torch
import torch.nn.functional as F

tokens, experts, capacity = 10, 3, 4
logits = data(tokens, experts, seed=15, scale=2.0)
probs = torch.softmax(logits, dim=-1)
expert_index = torch.argmax(probs, dim=-1)
expert_mask = F.one_hot(expert_index, num_classes=experts)
token_priority = torch.cumsum(expert_mask, dim=-2)
expert_capacity_mask = token_priority <= capacity
expert_mask = expert_mask * expert_capacity_mask
router_probs = torch.max(probs, dim=-1).values.unsqueeze(-1)
dropped = (expert_mask.sum(-1) == 0)
position = (token_priority * expert_mask).sum(-1) - 1
report(idx=expert_index, priority=token_priority, mask=expert_mask, dropped=dropped, pos=position,
       rp=router_probs.squeeze(-1), dtype=expert_mask.dtype)
