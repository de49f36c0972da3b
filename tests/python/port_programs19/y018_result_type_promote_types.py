import torch
report(a=torch.result_type(torch.tensor([1]), 1.0), b=torch.result_type(torch.tensor([1], dtype=torch.uint8), torch.tensor([1], dtype=torch.int8)),
       c=torch.promote_types(torch.float16, torch.bfloat16), d=torch.promote_types(torch.uint8, torch.bool), e=torch.can_cast(torch.float32, torch.int32),
       f=torch.can_cast(torch.int32, torch.float32), g=torch.result_type(torch.tensor(1.0, dtype=torch.float64), torch.tensor([1], dtype=torch.float16)),
       h=torch.promote_types(torch.int16, torch.uint8), i=torch.result_type(2, 3.0), j=torch.result_type(torch.tensor([True]), True))
