import torch

d = {"a": torch.tensor([1.5, 2.0]), "b": [torch.tensor(3), (torch.tensor([True]),)]}
report(d=str(d), lst=repr([torch.zeros(2, dtype=torch.int8), torch.ones(1, dtype=torch.float64)]), tup=str((torch.tensor(1.0), torch.tensor([1j]))),
       fmt=f"{torch.tensor([1.0, 2.0])}", nested=repr(torch.tensor([[[1.0]]])), shape_str=f"{torch.zeros(2, 3).shape}", dtype_str=f"{torch.float32}")
