import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 3, 1)
        self.conv2 = nn.Conv2d(6, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.fc1 = nn.Linear(8 * 12 * 12, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output


def fgsm_attack(image, epsilon, data_grad):
    sign_data_grad = data_grad.sign()
    perturbed_image = image + epsilon * sign_data_grad
    perturbed_image = torch.clamp(perturbed_image, 0, 1)
    return perturbed_image


def denorm(batch, mean=[0.1307], std=[0.3081]):
    if isinstance(mean, list):
        mean = torch.tensor(mean)
    if isinstance(std, list):
        std = torch.tensor(std)
    return batch * std.view(1, -1, 1, 1) + mean.view(1, -1, 1, 1)


model = det(Net(), scale=0.1)
model.eval()
images = (data(6, 1, 28, 28, seed=3) * 0.3 + 0.1)
targets = ints(10, 6, seed=4)
epsilons = [0, .05, .1, .3]
results = []
for epsilon in epsilons:
    correct = 0
    adv_examples = []
    for i in range(6):
        data_ = images[i:i + 1].clone()
        target = targets[i:i + 1]
        data_.requires_grad = True
        output = model(data_)
        init_pred = output.max(1, keepdim=True)[1]
        loss = F.nll_loss(output, target)
        model.zero_grad()
        loss.backward()
        data_grad = data_.grad.data
        data_denorm = denorm(data_)
        perturbed_data = fgsm_attack(data_denorm, epsilon, data_grad)
        perturbed_data_normalized = (perturbed_data - 0.1307) / 0.3081
        output = model(perturbed_data_normalized)
        final_pred = output.max(1, keepdim=True)[1]
        if final_pred.item() == init_pred.item():
            correct += 1
        if len(adv_examples) < 2:
            adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
            adv_examples.append((init_pred.item(), final_pred.item(), float(adv_ex.sum())))
    results.append((epsilon, correct, adv_examples))
report(results=results, grad_sign=images.grad is None)
