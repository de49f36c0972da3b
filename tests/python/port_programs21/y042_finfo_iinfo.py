import torch

fi = torch.finfo(torch.float32)
fh = torch.finfo(torch.float16)
fb = torch.finfo(torch.bfloat16)
ii = torch.iinfo(torch.int32)
iu = torch.iinfo(torch.uint8)
x = torch.tensor([1.0, 2.0])
report(f32=[fi.eps, fi.max, fi.min, fi.tiny, fi.bits, fi.resolution], f16=[fh.eps, fh.max, fh.min, fh.tiny],
       bf=[fb.eps, fb.max, fb.bits], i32=[ii.max, ii.min, ii.bits], u8=[iu.max, iu.min],
       default=torch.finfo().eps, of_x=torch.finfo(x.dtype).max, mask=torch.full((2,), torch.finfo(torch.float32).min),
       i64=torch.iinfo(torch.int64).max, f64=torch.finfo(torch.float64).eps, dtype_str=str(fi.dtype),
       smallest=fi.smallest_normal, ii_dtype=ii.dtype)
