import torch
import torch.nn as nn

class BertEmbeddings(nn.Module):
    def __init__(self, vocab=20, hidden=8, max_pos=16, type_vocab=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_pos, hidden)
        self.token_type_embeddings = nn.Embedding(type_vocab, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=1e-12)
        self.dropout = nn.Dropout(0.1)
        self.register_buffer("position_ids", torch.arange(max_pos).expand((1, -1)), persistent=False)
        self.register_buffer("token_type_ids", torch.zeros(self.position_ids.size(), dtype=torch.long), persistent=False)

    def forward(self, input_ids, token_type_ids=None):
        seq_length = input_ids.size(1)
        position_ids = self.position_ids[:, :seq_length]
        if token_type_ids is None:
            buffered = self.token_type_ids[:, :seq_length]
            token_type_ids = buffered.expand(input_ids.shape[0], seq_length)
        emb = self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)
        emb = emb + self.position_embeddings(position_ids)
        return self.dropout(self.LayerNorm(emb))

m = det(BertEmbeddings(), seed=3).eval()
ids = torch.tensor([[2, 5, 7, 0, 0], [3, 3, 9, 11, 1]])
tt = torch.tensor([[0, 0, 1, 1, 1], [0, 1, 1, 1, 1]])
a = m(ids, tt)
b = m(ids)
a.sum().backward()
report(a=a, b=b[1], keys=sorted(m.state_dict().keys()), pad_grad=m.word_embeddings.weight.grad[0],
       tt_grad=m.token_type_embeddings.weight.grad.sum(1), pos_ids=m.position_ids.shape)
