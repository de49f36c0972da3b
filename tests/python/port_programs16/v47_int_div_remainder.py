import torch

a = torch.tensor([7, -7, 7, -7, 0, 5])
b = torch.tensor([2, 2, -2, -2, 3, -5])
fa, fb = a.float(), b.float()
report(
    floordiv=a // b, floor_divide=torch.floor_divide(a, b), rem=a % b, remainder=torch.remainder(a, b), fmod=torch.fmod(a, b),
    trunc=torch.div(a, b, rounding_mode="trunc"), floor=torch.div(a, b, rounding_mode="floor"), true=torch.div(a, b),
    ffloordiv=fa // fb, frem=fa % fb, ffmod=torch.fmod(fa, fb), rem_scalar=a % 3, rem_neg_scalar=a % -3,
    rfloordiv=17 // b, rrem=17 % b, fmod_s=torch.fmod(fa, 2.5), rem_f=torch.remainder(fa, -2.5),
    big=torch.tensor([2 ** 40 + 1]) // 3, u8=torch.tensor([200], dtype=torch.uint8) // torch.tensor([7], dtype=torch.uint8),
    fdz=torch.tensor([1.0, -1.0, 0.0]) // 0.0, neg0=(torch.tensor([-0.5]) // 1.0),
)
try:
    print(torch.tensor([1]) // torch.tensor([0]))
    err = "none"
except RuntimeError as e:
    err = "RuntimeError"
report(err=err)
