import torch

logits = torch.tensor([[1.0, 2.0, 2.0, 0.5, 2.0, 1.0, 0.5, 1.0], [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0]])
sd, si = torch.sort(logits, descending=True)
sa, sai = torch.sort(logits)
st, sti = torch.sort(logits, descending=True, stable=True)
cum = sd.softmax(-1).cumsum(-1)
remove = cum > 0.6
remove[..., 1:] = remove[..., :-1].clone()
remove[..., 0] = False
masked = logits.masked_fill(remove.scatter(1, si, remove), float("-inf"))
report(si=si, sai=sai, sti=sti, masked=masked, argsort=torch.argsort(logits, dim=1, descending=True),
       ints=torch.sort(torch.tensor([3, 1, 3, 2, 1, 3]), descending=True).indices, msort=torch.msort(logits.t())[0])
