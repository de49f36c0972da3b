import math
import torch
import torch.nn as nn
import torch.nn.init as init


class Net(nn.Module):
    def __init__(self, upscale_factor):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 16, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(16, 16, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(16, 8, (3, 3), (1, 1), (1, 1))
        self.conv4 = nn.Conv2d(8, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        x = self.relu(self.conv3(x))
        x = self.pixel_shuffle(self.conv4(x))
        return x


model = det(Net(upscale_factor=2), scale=0.1)
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
lr_img = torch.sigmoid(data(4, 1, 6, 6, seed=2))
hr_img = torch.sigmoid(data(4, 1, 12, 12, seed=3))
log = []
for epoch in range(3):
    optimizer.zero_grad()
    loss = criterion(model(lr_img), hr_img)
    loss.backward()
    optimizer.step()
    log.append(loss.item())
with torch.no_grad():
    mse = criterion(model(lr_img), hr_img)
    psnr = 10 * math.log10(1 / mse.item())
ps = nn.PixelShuffle(2)(torch.arange(16.).view(1, 4, 2, 2))
unps = nn.PixelUnshuffle(2)(ps)
report(log=log, psnr=psnr, ps=ps, back=torch.equal(unps, torch.arange(16.).view(1, 4, 2, 2)), out_shape=model(lr_img).shape)
