import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.Dropout(0.5), nn.ReLU(), nn.Linear(8, 3)), seed=1)
x = data(5, 4, seed=2)
model.train()
model(x)
model.eval()
with torch.inference_mode():
    out = model(x)
    probs = torch.softmax(out, dim=1)
    pred = probs.argmax(dim=1)
flags = [out.requires_grad, out.is_inference(), torch.is_inference_mode_enabled()]
with torch.no_grad():
    out2 = model(x)
flags += [out2.is_inference(), torch.equal(out, out2)]


@torch.inference_mode()
def predict(batch):
    return model(batch).argmax(1)


snapshot = out.clone()
try:
    out.add_(1)
    inplace = "ok"
except RuntimeError as e:
    inplace = "Inplace update to inference tensor outside InferenceMode" in str(e)
report(out=snapshot, probs=probs, pred=pred, flags=flags, pred2=predict(x), inplace=inplace, training=[m.training for m in model])
