import torch
from torch import nn
from torch.utils.data import DataLoader

train_iter = [(1, "the cat sat on the mat"), (2, "dogs bark loud"), (1, "a cat a mat"), (3, "sun rises in the east"),
              (2, "loud dogs"), (3, "east wind")]
vocab = {}
for _, text in train_iter:
    for tok in text.split():
        vocab.setdefault(tok, len(vocab))
text_pipeline = lambda x: [vocab[t] for t in x.split()]
label_pipeline = lambda x: int(x) - 1


def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for _label, _text in batch:
        label_list.append(label_pipeline(_label))
        processed_text = torch.tensor(text_pipeline(_text), dtype=torch.int64)
        text_list.append(processed_text)
        offsets.append(processed_text.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    text_list = torch.cat(text_list)
    return label_list, text_list, offsets


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super(TextClassificationModel, self).__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        initrange = 0.5
        with torch.no_grad():
            self.embedding.weight.copy_(data(*self.embedding.weight.shape, seed=11) * initrange)
            self.fc.weight.copy_(data(*self.fc.weight.shape, seed=12) * initrange)
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)


model = TextClassificationModel(len(vocab), 8, 3)
dataloader = DataLoader(train_iter, batch_size=3, shuffle=False, collate_fn=collate_batch)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)
log = []
for epoch in range(2):
    total_acc, total_count = 0, 0
    for idx, (label, text, offsets) in enumerate(dataloader):
        optimizer.zero_grad()
        predicted_label = model(text, offsets)
        loss = criterion(predicted_label, label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        total_acc += (predicted_label.argmax(1) == label).sum().item()
        total_count += label.size(0)
        log.append(loss.item())
    scheduler.step()
report(log=log, acc=total_acc / total_count, lr=scheduler.get_last_lr(), offsets=offsets, text=text)
