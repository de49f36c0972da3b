import torch

i = torch.tensor([-3, 0, 5])
f = torch.tensor([-1.5, 0.5, 2.5])
report(clamp_int_float=i.clamp(min=-1.5, max=2.5), clamp_int=i.clamp(-1, 2), clamp_tensor=f.clamp(min=torch.tensor([0.0, 1.0, 2.0])),
       where_scalar=torch.where(i > 0, i, 0.5), where_int=torch.where(i > 0, i, 7), where_two_scalars=torch.where(i > 0, 1.0, 0.0),
       where_bool=torch.where(i > 0, True, False), minimum=torch.minimum(i, torch.tensor([1.0, 1.0, 1.0])), fmax_int=torch.maximum(i, torch.tensor(2)),
       clip=torch.clip(f, -1, 1), lerp=torch.lerp(f, torch.zeros(3), 0.25), addcmul=torch.addcmul(f, f, f, value=2), addcdiv=torch.addcdiv(f, f, torch.tensor([2.0, 4.0, 5.0]), value=-1),
       sign_int=torch.sign(i), sgn=torch.sgn(f), copysign=torch.copysign(i, -1.0), abs_int=torch.abs(i).dtype, neg_bool_err=None)
