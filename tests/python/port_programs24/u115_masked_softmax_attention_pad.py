import torch
import torch.nn.functional as F

scores = data(2, 3, 4)
mask = torch.tensor([[True, True, False, False], [False, False, False, False]])
masked = scores.masked_fill(~mask[:, None, :], float("-inf"))
p = F.softmax(masked, dim=-1)
p_safe = torch.nan_to_num(p)
neg = scores.masked_fill(~mask[:, None, :], torch.finfo(scores.dtype).min)
p_min = F.softmax(neg, dim=-1)
attn = torch.nn.MultiheadAttention(4, 1, batch_first=True)
det(attn)
q = data(2, 3, 4, seed=5)
out, w = attn(q, q, q, key_padding_mask=torch.tensor([[False, False, True], [False, True, True]]))
sdpa = F.scaled_dot_product_attention(q.unsqueeze(1), q.unsqueeze(1), q.unsqueeze(1), attn_mask=torch.tensor([[True, False, True], [True, True, False], [False, True, True]]))
report(p_nan_rows=torch.isnan(p).all(-1), p_safe=p_safe[0, 0], p_min=p_min[1, 0], out=out[1], w=w[0], sdpa=sdpa[0, 0, 1])
