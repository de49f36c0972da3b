# TOL 1e-3
import torch
import torch.nn as nn
import torch.nn.functional as F
def gram_matrix(input):
    a, b, c, d = input.size()
    features = input.view(a * b, c * d)
    G = torch.mm(features, features.t())
    return G.div(a * b * c * d)
class ContentLoss(nn.Module):
    def __init__(self, target):
        super(ContentLoss, self).__init__()
        self.target = target.detach()
    def forward(self, input):
        self.loss = F.mse_loss(input, self.target)
        return input
class StyleLoss(nn.Module):
    def __init__(self, target_feature):
        super(StyleLoss, self).__init__()
        self.target = gram_matrix(target_feature).detach()
    def forward(self, input):
        G = gram_matrix(input)
        self.loss = F.mse_loss(G, self.target)
        return input
class Normalization(nn.Module):
    def __init__(self, mean, std):
        super(Normalization, self).__init__()
        self.mean = torch.tensor(mean).view(-1, 1, 1)
        self.std = torch.tensor(std).view(-1, 1, 1)
    def forward(self, img):
        return (img - self.mean) / self.std
cnn = det(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(inplace=False), nn.Conv2d(4, 4, 3, padding=1), nn.ReLU(inplace=False)), 0, 0.3).eval()
for p in cnn.parameters(): p.requires_grad_(False)
content = torch.sigmoid(data(1, 3, 8, 8)); style = torch.sigmoid(data(1, 3, 8, 8, seed=5))
norm = Normalization([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
model = nn.Sequential(norm)
content_losses, style_losses = [], []
i = 0
for layer in cnn.children():
    if isinstance(layer, nn.Conv2d):
        i += 1; name = 'conv_{}'.format(i)
    elif isinstance(layer, nn.ReLU):
        name = 'relu_{}'.format(i); layer = nn.ReLU(inplace=False)
    model.add_module(name, layer)
    if name == 'conv_2':
        target = model(content).detach(); cl = ContentLoss(target); model.add_module("content_loss_{}".format(i), cl); content_losses.append(cl)
    if name in ('conv_1', 'conv_2'):
        tf = model(style).detach(); sl = StyleLoss(tf); model.add_module("style_loss_{}".format(i), sl); style_losses.append(sl)
input_img = content.clone()
input_img.requires_grad_(True)
optimizer = torch.optim.LBFGS([input_img])
run = [0]; hist = []
while run[0] <= 6:
    def closure():
        with torch.no_grad():
            input_img.clamp_(0, 1)
        optimizer.zero_grad()
        model(input_img)
        style_score = sum(sl.loss for sl in style_losses) * 1000
        content_score = sum(cl.loss for cl in content_losses)
        loss = style_score + content_score
        loss.backward()
        run[0] += 1
        hist.append(loss.item())
        return style_score + content_score
    optimizer.step(closure)
with torch.no_grad():
    input_img.clamp_(0, 1)
tv = (input_img[:, :, 1:, :] - input_img[:, :, :-1, :]).abs().mean() + (input_img[:, :, :, 1:] - input_img[:, :, :, :-1]).abs().mean()
inorm = nn.InstanceNorm2d(3, affine=True)(input_img)
report(hist=hist[:8], names=[n for n, _ in model.named_children()], tv=tv, inorm=inorm[0, 0, 0], refl=nn.ReflectionPad2d(2)(content)[0, 0, 0])
