import torch
import torch.nn.functional as F

T, N, C = 7, 3, 4
lp = data(T, N, C, seed=205).double().log_softmax(2).detach().requires_grad_()
targets = torch.tensor([1, 2, 3, 1, 1, 3, 2], dtype=torch.int32)
il = torch.tensor([7, 6, 5], dtype=torch.int32)
tl = torch.tensor([3, 2, 2], dtype=torch.int32)
loss = F.ctc_loss(lp, targets, il, tl, reduction="mean")
loss.backward()
none = F.ctc_loss(lp, targets, il, tl, reduction="none")
padded = torch.tensor([[1, 2, 3], [1, 1, 0], [3, 2, 0]])
same = F.ctc_loss(lp, padded, il.long(), tl.long(), reduction="none")
report(loss=loss, dtype=loss.dtype, none=none, same=bool(torch.allclose(none, same)), grad=lp.grad[:, 2], unbatched=F.ctc_loss(lp[:, 0], padded[0], il[:1].long(), tl[:1].long()))
