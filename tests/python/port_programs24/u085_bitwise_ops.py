import torch

a = torch.tensor([12, -3, 255, 0], dtype=torch.int32)
b = torch.tensor([10, 5, 15, -1], dtype=torch.int32)
u = torch.tensor([0b10101010, 0b00001111], dtype=torch.uint8)
m = torch.tensor([True, False, True])
n = torch.tensor([True, True, False])
report(and_=a & b, or_=a | b, xor=a ^ b, not_=~a, lshift=a << 2, rshift=a >> 1, u_not=~u, u_shift=u << 1, u_rshift=u >> 3,
       band=torch.bitwise_and(a, 6), bor=torch.bitwise_or(a, 1), bxor=torch.bitwise_xor(a, a), bnot=torch.bitwise_not(m),
       m_and=m & n, m_or=m | n, m_xor=m ^ n, m_not=~m, popcount=[bin(x & 0xFF).count("1") for x in u.tolist()],
       lshift_t=torch.bitwise_left_shift(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 3])), i64_neg_shift=torch.tensor([-16]) >> 2,
       inplace=a.clone().__iand__(b), bool_int=(m & torch.tensor([1, 0, 1]).bool()), dtype=(u & 1).dtype, dtype2=(a & torch.tensor(1)).dtype)
