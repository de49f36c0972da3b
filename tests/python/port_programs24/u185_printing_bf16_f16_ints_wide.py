import torch

report(bf=repr(torch.tensor([1.0, 2.5, -3.125], dtype=torch.bfloat16)), f16=repr(torch.tensor([0.1, 1000.0], dtype=torch.float16)),
       i16=repr(torch.tensor([-32768, 32767], dtype=torch.int16)), u8img=repr(torch.arange(0, 256, 51, dtype=torch.uint8)),
       wide=repr(torch.linspace(0, 1, 12)), exp=repr(torch.tensor([1e-3, 1e3])), neg=repr(-torch.ones(2, 2, dtype=torch.int64)))
