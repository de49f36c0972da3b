import torch
t = torch.tensor(3.7)
i = torch.tensor(5)
b = torch.tensor(True)
lst = [10, 20, 30, 40, 50, 60]
report(i1=int(t), f1=float(i), b1=bool(torch.tensor(0.0)), b2=bool(b), idx=lst[i], sl=lst[torch.tensor(1):torch.tensor(3)], it=t.item(), itd=type(i.item()).__name__,
       tl=torch.tensor([[1, 2], [3, 4]]).tolist(), tlf=torch.tensor([0.5]).tolist(), tlb=torch.tensor([True]).tolist(), rng=list(range(i)),
       hexv=hex(i), cpx=str(complex(torch.tensor(2.0))), rnd=round(torch.tensor(2.567).item(), 2), abst=abs(torch.tensor(-2)), bl=torch.tensor(2).bit_length() if hasattr(torch.Tensor, "bit_length") else 2)
