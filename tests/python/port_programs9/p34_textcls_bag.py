import torch
from torch import nn
class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super(TextClassificationModel, self).__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()
    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()
    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))
def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for (_label, _text) in batch:
        label_list.append(_label)
        processed_text = torch.tensor(_text, dtype=torch.int64)
        text_list.append(processed_text)
        offsets.append(processed_text.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    text_list = torch.cat(text_list)
    return label_list, text_list, offsets
model = det(TextClassificationModel(30, 8, 4), 0, 0.3)
batch = [(0, [1, 2, 3]), (3, [4, 5]), (1, [6, 7, 8, 9]), (2, [10])]
label, text, offsets = collate_batch(batch)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)
accs, losses = [], []
for _ in range(3):
    optimizer.zero_grad()
    predicted_label = model(text, offsets)
    loss = criterion(predicted_label, label)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
    optimizer.step()
    accs.append((predicted_label.argmax(1) == label).sum().item()); losses.append(loss.item())
    scheduler.step()
bag_mean = nn.EmbeddingBag.from_pretrained(model.embedding.weight.detach(), mode="max")
report(losses=losses, accs=accs, offsets=offsets, mx=bag_mean(text, offsets), lr=scheduler.get_last_lr())
