import torch
import torch.nn as nn


class BertEmbeddings(nn.Module):
    def __init__(self, vocab=20, d=8, maxpos=16, types=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, d, padding_idx=0)
        self.position_embeddings = nn.Embedding(maxpos, d)
        self.token_type_embeddings = nn.Embedding(types, d)
        self.LayerNorm = nn.LayerNorm(d, eps=1e-12)
        self.dropout = nn.Dropout(0.1)
        self.register_buffer("position_ids", torch.arange(maxpos).expand((1, -1)), persistent=False)
        self.register_buffer("token_type_ids", torch.zeros(self.position_ids.size(), dtype=torch.long), persistent=False)

    def forward(self, input_ids, token_type_ids=None):
        seq_length = input_ids.size(1)
        position_ids = self.position_ids[:, :seq_length]
        if token_type_ids is None:
            token_type_ids = self.token_type_ids[:, :seq_length].expand(input_ids.size(0), seq_length)
        e = self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids) + self.position_embeddings(position_ids)
        return self.dropout(self.LayerNorm(e))


m = det(BertEmbeddings()).eval()
ids = torch.tensor([[5, 6, 7, 0, 0], [3, 9, 2, 4, 1]])
tt = torch.tensor([[0, 0, 1, 1, 1], [0, 1, 1, 1, 1]])
a = m(ids)
b = m(ids, tt)
a.sum().backward()
report(a=a, b=b, keys=sorted(m.state_dict().keys()), pad_grad=m.word_embeddings.weight.grad[0],
       g5=m.word_embeddings.weight.grad[5], buf=m.position_ids.shape, stride=list(m.position_ids.stride()))
