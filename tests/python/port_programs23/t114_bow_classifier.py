import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

data_ = [("me gusta comer en la cafeteria".split(), "SPANISH"),
         ("Give it to me".split(), "ENGLISH"),
         ("No creo que sea una buena idea".split(), "SPANISH"),
         ("No it is not a good idea to get lost at sea".split(), "ENGLISH")]
test_data = [("Yo creo que si".split(), "SPANISH"),
             ("it is lost on me".split(), "ENGLISH")]
word_to_ix = {}
for sent, _ in data_ + test_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
VOCAB_SIZE = len(word_to_ix)
NUM_LABELS = 2


class BoWClassifier(nn.Module):
    def __init__(self, num_labels, vocab_size):
        super(BoWClassifier, self).__init__()
        self.linear = nn.Linear(vocab_size, num_labels)

    def forward(self, bow_vec):
        return F.log_softmax(self.linear(bow_vec), dim=1)


def make_bow_vector(sentence, word_to_ix):
    vec = torch.zeros(len(word_to_ix))
    for word in sentence:
        vec[word_to_ix[word]] += 1
    return vec.view(1, -1)


def make_target(label, label_to_ix):
    return torch.LongTensor([label_to_ix[label]])


model = det(BoWClassifier(NUM_LABELS, VOCAB_SIZE), scale=0.1)
params = [p.shape for p in model.parameters()]
with torch.no_grad():
    sample = data_[0]
    bow_vector = make_bow_vector(sample[0], word_to_ix)
    log_probs = model(bow_vector)
label_to_ix = {"SPANISH": 0, "ENGLISH": 1}
with torch.no_grad():
    before = [model(make_bow_vector(instance, word_to_ix)) for instance, label in test_data]
creo_before = next(model.parameters())[:, word_to_ix["creo"]].clone()
loss_function = nn.NLLLoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)
for epoch in range(100):
    for instance, label in data_:
        model.zero_grad()
        bow_vec = make_bow_vector(instance, word_to_ix)
        target = make_target(label, label_to_ix)
        log_probs2 = model(bow_vec)
        loss = loss_function(log_probs2, target)
        loss.backward()
        optimizer.step()
with torch.no_grad():
    after = [model(make_bow_vector(instance, word_to_ix)) for instance, label in test_data]
report(params=params, log_probs=log_probs, before=before, after=after, creo=[creo_before, next(model.parameters())[:, word_to_ix["creo"]]])
