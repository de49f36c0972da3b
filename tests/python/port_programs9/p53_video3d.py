import torch
import torch.nn as nn
class C3D(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv3d(3, 4, kernel_size=3, padding=1); self.bn1 = nn.BatchNorm3d(4)
        self.pool1 = nn.MaxPool3d(kernel_size=(1, 2, 2), stride=(1, 2, 2))
        self.conv2 = nn.Conv3d(4, 8, kernel_size=(3, 3, 3), padding=(1, 1, 1), stride=(1, 2, 2))
        self.pool2 = nn.AdaptiveAvgPool3d((1, 1, 1))
        self.fc = nn.Linear(8, 3)
    def forward(self, x):
        x = self.pool1(torch.relu(self.bn1(self.conv1(x))))
        x = self.pool2(torch.relu(self.conv2(x)))
        return self.fc(x.flatten(1))
m = det(C3D(), 0, 0.3)
x = data(2, 3, 4, 8, 8); y = torch.tensor([0, 2])
opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9)
losses = []
for _ in range(3):
    opt.zero_grad(); loss = nn.CrossEntropyLoss()(m(x), y); loss.backward(); opt.step(); losses.append(loss.item())
m.eval()
up = nn.functional.interpolate(x, size=(5, 6, 6), mode="trilinear", align_corners=False)
report(losses=losses, out=m(x), rm=m.bn1.running_mean, up=up[0, 0, 1, 2], avg3=nn.AvgPool3d(2)(x)[0, 0, 0])
