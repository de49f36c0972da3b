import torch
import torch.nn.functional as F

def repeat_kv(hidden_states, n_rep):
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)

q = data(2, 4, 5, 4, seed=1)
k = data(2, 2, 5, 4, seed=2).requires_grad_()
v = data(2, 2, 5, 4, seed=3)
kr, vr = repeat_kv(k, 2), repeat_kv(v, 2)
same = torch.equal(kr, torch.repeat_interleave(k, 2, dim=1))
causal = torch.full((5, 5), float("-inf")).triu(1)
w = torch.matmul(q, kr.transpose(2, 3)) / 2.0 + causal
w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
out = torch.matmul(w, vr)
sd = F.scaled_dot_product_attention(q, kr, vr, is_causal=True)
out.sum().backward()
report(same=same, out=out[1, 3], close=bool(torch.allclose(out, sd, atol=1e-5)), kgrad=k.grad[0, 1],
       contiguous=kr.is_contiguous())
