import torch
import torch.nn as nn
import torch.optim as optim


class DeepNN(nn.Module):
    def __init__(self, num_classes=10):
        super(DeepNN, self).__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, kernel_size=3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 8, kernel_size=3, padding=1), nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
        )
        self.classifier = nn.Sequential(nn.Linear(8 * 4 * 4, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, num_classes))

    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(x, 1)
        x = self.classifier(x)
        return x


class LightNN(nn.Module):
    def __init__(self, num_classes=10):
        super(LightNN, self).__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=2, stride=2))
        self.classifier = nn.Sequential(nn.Linear(4 * 4 * 4, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, num_classes))

    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(x, 1)
        x = self.classifier(x)
        return x


teacher = det(DeepNN(), seed=1, scale=0.2)
student = det(LightNN(), seed=2, scale=0.2)
train_loader = [(data(4, 3, 8, 8, seed=10 + i), ints(10, 4, seed=20 + i)) for i in range(3)]


def train_knowledge_distillation(teacher, student, train_loader, epochs, learning_rate, T, soft_target_loss_weight, ce_loss_weight):
    ce_loss = nn.CrossEntropyLoss()
    optimizer = optim.Adam(student.parameters(), lr=learning_rate)
    teacher.eval()
    student.train()
    for m in student.modules():
        if isinstance(m, nn.Dropout):
            m.p = 0.0
    log = []
    for epoch in range(epochs):
        running_loss = 0.0
        for inputs, labels in train_loader:
            optimizer.zero_grad()
            with torch.no_grad():
                teacher_logits = teacher(inputs)
            student_logits = student(inputs)
            soft_targets = nn.functional.softmax(teacher_logits / T, dim=-1)
            soft_prob = nn.functional.log_softmax(student_logits / T, dim=-1)
            soft_targets_loss = torch.sum(soft_targets * (soft_targets.log() - soft_prob)) / soft_prob.size()[0] * (T ** 2)
            label_loss = ce_loss(student_logits, labels)
            loss = soft_target_loss_weight * soft_targets_loss + ce_loss_weight * label_loss
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        log.append(f"Epoch {epoch+1}/{epochs}, Loss: {running_loss / len(train_loader)}")
    return log


log = train_knowledge_distillation(teacher, student, train_loader, epochs=2, learning_rate=0.001, T=2, soft_target_loss_weight=0.25, ce_loss_weight=0.75)
kl = nn.KLDivLoss(reduction="batchmean")
x = train_loader[0][0]
kld = kl(torch.log_softmax(student(x) / 2, dim=1), torch.softmax(teacher(x) / 2, dim=1))
cos = nn.CosineEmbeddingLoss()(student(x), teacher(x), torch.ones(4))
total_params_deep = "{:,}".format(sum(p.numel() for p in teacher.parameters()))
report(log=log, kld=kld, cos=cos, total=total_params_deep, light=sum(p.numel() for p in student.parameters()))
