import torch
a = torch.tensor([1, 2, 3])
msgs = []
for op in (lambda: a.add_(1.5), lambda: a.mul_(torch.tensor([0.5, 1.0, 2.0])), lambda: a.div_(2),
           lambda: torch.tensor([True, False]).add_(1)):
    try:
        op()
        msgs.append("ok")
    except RuntimeError as e:
        msgs.append("result type" in str(e))
f = torch.tensor([1.0, 2.0])
f.add_(torch.tensor([1, 2]))
f.mul_(True)
i = torch.tensor([5, 7]); i //= 2
report(msgs=msgs, a=a, f=f, i=i)
