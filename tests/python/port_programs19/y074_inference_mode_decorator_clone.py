import torch
model = det(torch.nn.Linear(3, 2))
@torch.inference_mode()
def predict(x):
    return model(x)
y = predict(data(2, 3))
z = y.clone()
with torch.inference_mode():
    v = torch.zeros(2)
    v.add_(1)
report(y=y, yinf=y.is_inference(), zinf=z.is_inference(), v=v, vinf=v.is_inference(), wgrad=model.weight.requires_grad, yrg=y.requires_grad, det=y.detach().is_inference())
