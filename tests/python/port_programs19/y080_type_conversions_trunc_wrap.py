import torch
f = torch.tensor([-1.7, -0.5, 0.5, 1.7, 255.9, 300.0])
report(i=f.long(), i32=f.int(), i8=torch.tensor([-1.7, 127.9]).to(torch.int8), u8=torch.tensor([0.5, 255.9]).to(torch.uint8), b=f.bool(), h=torch.tensor([70000.0, 1e-8]).half(),
       bf=torch.tensor([3.14159265]).bfloat16(), back=torch.tensor([1 / 3]).half().float(), i2f=torch.tensor([2 ** 24 + 1]).float().long(), wrap=torch.tensor([300]).to(torch.uint8),
       neg=torch.tensor([-1]).to(torch.uint8), i8w=torch.tensor([200]).to(torch.int8), d=torch.tensor([1, 2]).double().dtype, tp=torch.tensor([1.9]).type(torch.int32))
