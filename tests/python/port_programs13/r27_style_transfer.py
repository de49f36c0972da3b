import torch
import torch.nn as nn
import torch.nn.functional as F
def gram_matrix(x):
    b, c, h, w = x.size()
    f = x.view(b * c, h * w)
    G = torch.mm(f, f.t())
    return G.div(b * c * h * w)
cnn = det(nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(8, 16, 3, padding=1), nn.ReLU()), 0, 0.2).eval()
for p in cnn.parameters(): p.requires_grad_(False)
features = {}
def save(name):
    def hook(module, inp, out):
        features[name] = out
    return hook
handles = [cnn[i].register_forward_hook(save(f"relu{i}")) for i in (1, 3, 6)]
mean = torch.tensor([0.485, 0.456, 0.406]).view(-1, 1, 1); std = torch.tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
content = data(1, 3, 16, 16).sigmoid(); style = data(1, 3, 16, 16, seed=5).sigmoid()
cnn((style - mean) / std); style_grams = {k: gram_matrix(v).detach() for k, v in features.items()}
cnn((content - mean) / std); content_feat = features["relu3"].detach()
img = content.clone().requires_grad_(True)
opt = torch.optim.LBFGS([img], max_iter=4)
run = [0]
hist = []
def closure():
    with torch.no_grad():
        img.clamp_(0, 1)
    opt.zero_grad()
    cnn((img - mean) / std)
    s_loss = sum(F.mse_loss(gram_matrix(features[k]), style_grams[k]) for k in style_grams)
    c_loss = F.mse_loss(features["relu3"], content_feat)
    loss = 1e4 * s_loss + c_loss
    loss.backward()
    run[0] += 1
    hist.append(loss.item())
    return loss
for _ in range(2):
    opt.step(closure)
for h in handles: h.remove()
cnn(img); 
report(hist=hist, run=run[0], nfeat=len(features), hooks=len(cnn[1]._forward_hooks), g=gram_matrix(img.detach())[0, :3])
