import torch
import torch.nn as nn

SOS_token = 1


class Decoder(nn.Module):
    def __init__(self, voc, hidden):
        super().__init__()
        self.n_layers = 1
        self.embedding = nn.Embedding(voc, hidden)
        self.gru = nn.GRU(hidden, hidden)
        self.out = nn.Linear(hidden, voc)

    def forward(self, input_step, last_hidden, encoder_outputs):
        o, h = self.gru(self.embedding(input_step), last_hidden)
        return torch.softmax(self.out(o.squeeze(0) + encoder_outputs.mean(0)), dim=1), h


class GreedySearchDecoder(nn.Module):
    def __init__(self, decoder):
        super(GreedySearchDecoder, self).__init__()
        self.decoder = decoder

    def forward(self, encoder_outputs, encoder_hidden, max_length):
        decoder_hidden = encoder_hidden[:self.decoder.n_layers]
        decoder_input = torch.ones(1, 1, dtype=torch.long) * SOS_token
        all_tokens = torch.zeros([0], dtype=torch.long)
        all_scores = torch.zeros([0])
        for _ in range(max_length):
            decoder_output, decoder_hidden = self.decoder(decoder_input, decoder_hidden, encoder_outputs)
            decoder_scores, decoder_input = torch.max(decoder_output, dim=1)
            all_tokens = torch.cat((all_tokens, decoder_input), dim=0)
            all_scores = torch.cat((all_scores, decoder_scores), dim=0)
            decoder_input = torch.unsqueeze(decoder_input, 0)
        return all_tokens, all_scores


dec = det(Decoder(10, 6), scale=0.5)
searcher = GreedySearchDecoder(dec)
searcher.eval()
with torch.no_grad():
    tokens, scores = searcher(data(4, 1, 6, seed=3), data(1, 1, 6, seed=4), 6)
report(tokens=tokens, scores=scores, words=[str(t.item()) for t in tokens if t.item() != 2])
