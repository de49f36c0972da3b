import torch
report(i8=[torch.iinfo(torch.int8).min, torch.iinfo(torch.int8).max], u8=torch.iinfo(torch.uint8).max, i64=torch.iinfo(torch.int64).max, i16=torch.iinfo(torch.int16).bits,
       f32=[torch.finfo(torch.float32).eps, torch.finfo(torch.float32).max, torch.finfo(torch.float32).tiny, torch.finfo(torch.float32).resolution],
       f16=[torch.finfo(torch.float16).max, torch.finfo(torch.float16).smallest_normal], f64b=torch.finfo(torch.float64).bits, dflt=torch.finfo().eps, bfdt=str(torch.finfo(torch.bfloat16).dtype))
