import torch
import torch.nn.functional as F

inp = F.log_softmax(data(3, 5, seed=208), -1).requires_grad_()
target = torch.tensor([[0.0, 0.5, 0.5, 0.0, 0.0], [0.2, 0.2, 0.2, 0.2, 0.2], [1.0, 0.0, 0.0, 0.0, 0.0]])
none = F.kl_div(inp, target, reduction="none")
bm = F.kl_div(inp, target, reduction="batchmean")
bm.backward()
lt = F.kl_div(inp, torch.log(target.clamp(min=1e-8)), reduction="sum", log_target=True)
neg = F.kl_div(inp, torch.tensor([[-0.1, 0.3, 0.3, 0.3, 0.2]] * 3), reduction="sum")
report(none=none, bm=bm, g=inp.grad, lt=lt, neg=neg, xlogy=torch.xlogy(torch.tensor([0.0, 0.5]), torch.tensor([0.0, 0.25])))
