import torch
import torch.nn.functional as F

q = data(1, 2, 3, 4, seed=1).requires_grad_()
k = data(1, 2, 3, 4, seed=2).requires_grad_()
v = data(1, 2, 3, 4, seed=3).requires_grad_()
o = F.scaled_dot_product_attention(q, k, v, dropout_p=0.0, is_causal=True)
o.pow(2).sum().backward()
gq, gk, gv = q.grad.clone(), k.grad.clone(), v.grad.clone()
bias = data(3, 3, seed=4).requires_grad_()
o2 = F.scaled_dot_product_attention(q.detach(), k.detach(), v.detach(), attn_mask=bias)
o2.sum().backward()
report(o=o.detach(), gq=gq, gk=gk, gv=gv, gbias=bias.grad, first_row=torch.allclose(o[0, :, 0], v[0, :, 0]))
