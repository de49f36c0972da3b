import torch

ids = torch.tensor([1, 2, 3, 1000, 123456789], dtype=torch.int64)
h = ids.clone()
h ^= h >> 16
h = (h * 0x45D9F3B) & 0xFFFFFFFF
h ^= h >> 16
buckets = h % 7
flags = torch.tensor([0b1011, 0b0100, 0b1111], dtype=torch.int32)
has = [(flags >> k) & 1 for k in range(4)]
packed = (torch.tensor([[1, 0, 1, 1], [0, 0, 1, 0]], dtype=torch.uint8) << torch.arange(4, dtype=torch.uint8)).sum(1)
i32 = torch.tensor([1], dtype=torch.int32) << 31
report(h=h, buckets=buckets, has=torch.stack(has, 1), packed=packed, packed_dtype=packed.dtype, i32=i32, neg_rshift=torch.tensor([-7]) >> 1,
       xor_reduce=torch.tensor([5, 3, 6]).bitwise_xor(torch.tensor(1)), and_bool=torch.tensor([True, False]) & torch.tensor([True, True]))
