import torch

f = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5])
report(default=torch.nan_to_num(f), custom=torch.nan_to_num(f, nan=0.0, posinf=1e3, neginf=-1e3), f16=torch.nan_to_num(f.half()).float(),
       f64=torch.nan_to_num(f.double()), ints=torch.nan_to_num(torch.tensor([1, 2])), inplace=f.clone().nan_to_num_(nan=-1.0),
       isfinite_int=torch.isfinite(torch.tensor([1, 2])), isnan_int=torch.isnan(torch.tensor([3])), isinf_bool=torch.isinf(torch.tensor([True])),
       bf16_big=torch.tensor([3.0e38]).bfloat16().float(), f16_over=torch.tensor([70000.0]).half().float(), f16_sub=torch.tensor([1e-8]).half().float())
