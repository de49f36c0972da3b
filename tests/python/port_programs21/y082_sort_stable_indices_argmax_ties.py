import torch

x = torch.tensor([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0]])
nan = torch.tensor([1.0, float("nan"), 3.0, float("nan"), 0.0])
report(am=x.argmax(1), an=x.argmin(1), mx=x.max(1), mn=x.min(dim=1, keepdim=True), amx=x.argmax(), nan_sort=nan.sort(),
       nan_argmax=nan.argmax(), nan_max=nan.max(), nan_topk=nan.topk(2), desc=torch.sort(x, 1, descending=True),
       amax=x.amax(1), aminmax=torch.aminmax(x[0]), mode=torch.mode(torch.tensor([1, 2, 2, 3, 3])),
       median=torch.median(torch.tensor([1.0, 5.0, 2.0, 4.0])), nanmedian=torch.nanmedian(nan),
       med_dim=torch.median(x, dim=1))
