import torch
x = torch.tensor([1.0, 2.0, 4.0])
i = torch.tensor([3, 4])
report(r1=2 - x, r2=1 / x, r3=2 ** x, r4=10 % torch.tensor([3, 4]), r5=7 // i, r6=3 * x, r7=5 + i, r8=1 & torch.tensor([1, 3]), r9=2 | i,
       r10=6 ^ i, r11=1 << i, r12=100 >> i, r13=2.5 @ torch.tensor(2.0) if False else 0, r14=-x, r15=+x, r16=abs(-x), r17=(True + i), r18=(1.5 - i).dtype)
