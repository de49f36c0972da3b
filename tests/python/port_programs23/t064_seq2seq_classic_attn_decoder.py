import torch
import torch.nn as nn
import torch.nn.functional as F

MAX_LENGTH = 5
SOS_token, EOS_token = 0, 1


class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size):
        super(EncoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size)

    def forward(self, input, hidden):
        embedded = self.embedding(input).view(1, 1, -1)
        output = embedded
        output, hidden = self.gru(output, hidden)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, 1, self.hidden_size)


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, dropout_p=0.1, max_length=MAX_LENGTH):
        super(AttnDecoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.output_size = output_size
        self.max_length = max_length
        self.embedding = nn.Embedding(self.output_size, self.hidden_size)
        self.attn = nn.Linear(self.hidden_size * 2, self.max_length)
        self.attn_combine = nn.Linear(self.hidden_size * 2, self.hidden_size)
        self.dropout = nn.Dropout(dropout_p)
        self.gru = nn.GRU(self.hidden_size, self.hidden_size)
        self.out = nn.Linear(self.hidden_size, self.output_size)

    def forward(self, input, hidden, encoder_outputs):
        embedded = self.embedding(input).view(1, 1, -1)
        embedded = self.dropout(embedded)
        attn_weights = F.softmax(self.attn(torch.cat((embedded[0], hidden[0]), 1)), dim=1)
        attn_applied = torch.bmm(attn_weights.unsqueeze(0), encoder_outputs.unsqueeze(0))
        output = torch.cat((embedded[0], attn_applied[0]), 1)
        output = self.attn_combine(output).unsqueeze(0)
        output = F.relu(output)
        output, hidden = self.gru(output, hidden)
        output = F.log_softmax(self.out(output[0]), dim=1)
        return output, hidden, attn_weights


hidden_size = 12
encoder = det(EncoderRNN(9, hidden_size), seed=1, scale=0.3)
decoder = det(AttnDecoderRNN(hidden_size, 8, dropout_p=0.0), seed=2, scale=0.3)
enc_opt = torch.optim.SGD(encoder.parameters(), lr=0.05)
dec_opt = torch.optim.SGD(decoder.parameters(), lr=0.05)
criterion = nn.NLLLoss()
pairs = [(torch.tensor([[2], [3], [4], [EOS_token]]), torch.tensor([[5], [6], [EOS_token]])),
         (torch.tensor([[7], [8], [EOS_token]]), torch.tensor([[2], [3], [4], [EOS_token]]))]


def train(input_tensor, target_tensor, use_teacher_forcing):
    encoder_hidden = encoder.initHidden()
    enc_opt.zero_grad()
    dec_opt.zero_grad()
    input_length = input_tensor.size(0)
    target_length = target_tensor.size(0)
    encoder_outputs = torch.zeros(MAX_LENGTH, encoder.hidden_size)
    loss = 0
    for ei in range(input_length):
        encoder_output, encoder_hidden = encoder(input_tensor[ei], encoder_hidden)
        encoder_outputs[ei] = encoder_output[0, 0]
    decoder_input = torch.tensor([[SOS_token]])
    decoder_hidden = encoder_hidden
    if use_teacher_forcing:
        for di in range(target_length):
            decoder_output, decoder_hidden, decoder_attention = decoder(decoder_input, decoder_hidden, encoder_outputs)
            loss += criterion(decoder_output, target_tensor[di])
            decoder_input = target_tensor[di]
    else:
        for di in range(target_length):
            decoder_output, decoder_hidden, decoder_attention = decoder(decoder_input, decoder_hidden, encoder_outputs)
            topv, topi = decoder_output.topk(1)
            decoder_input = topi.squeeze().detach()
            loss += criterion(decoder_output, target_tensor[di])
            if decoder_input.item() == EOS_token:
                break
    loss.backward()
    enc_opt.step()
    dec_opt.step()
    return loss.item() / target_length


losses = [train(*pairs[i % 2], use_teacher_forcing=(i % 3 != 0)) for i in range(6)]
report(losses=losses, emb=encoder.embedding.weight[2, :4], attn=decoder.attn.bias[:3])
