import torch
report(fp=[torch.float16.is_floating_point, torch.int8.is_floating_point, torch.complex64.is_complex], sg=[torch.uint8.is_signed, torch.int8.is_signed, torch.float32.is_signed],
       isz=[torch.tensor([1], dtype=d).element_size() for d in (torch.uint8, torch.int16, torch.float16, torch.bfloat16, torch.float64, torch.bool)],
       itemsize=torch.float32.itemsize, names=[str(torch.float), str(torch.double), str(torch.half), str(torch.long), str(torch.int), str(torch.short)],
       fpt=torch.is_floating_point(torch.tensor([1])), nb=torch.zeros(3, 4, dtype=torch.float16).nbytes, conj=torch.float32.to_complex(), real=torch.complex128.to_real())
