import torch
import torch.nn as nn
import torch.nn.functional as F
class C3D(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv3d(3, 4, kernel_size=(3, 3, 3), padding=(1, 1, 1))
        self.bn1 = nn.BatchNorm3d(4)
        self.pool1 = nn.MaxPool3d(kernel_size=(1, 2, 2), stride=(1, 2, 2))
        self.conv2 = nn.Conv3d(4, 4, kernel_size=3, padding=1, stride=(2, 1, 1))
        self.pool = nn.AdaptiveAvgPool3d(1)
        self.fc = nn.Linear(4, 5)
    def forward(self, x):
        x = self.pool1(F.relu(self.bn1(self.conv1(x))))
        x = F.relu(self.conv2(x))
        return self.fc(self.pool(x).flatten(1))
net = det(C3D(), 0, 0.2)
clip = data(2, 3, 4, 8, 8)
out = net(clip)
F.cross_entropy(out, torch.tensor([1, 3])).backward()
up = F.interpolate(clip[:, :1], size=(6, 10, 10), mode="trilinear", align_corners=False)
ap = F.avg_pool3d(clip, kernel_size=2)
report(out=out, g=net.conv1.weight.grad[0, 0, 1], up=up[0, 0, 2, 3, :4], ap=ap[1, 2, 1, 2], rv=net.bn1.running_var)
