import torch
import torch.nn as nn


class Config:
    vocab_size, hidden_size, initializer_range, pad_token_id = 11, 8, 0.02, 0


class Model(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embed = nn.Embedding(config.vocab_size, config.hidden_size, padding_idx=config.pad_token_id)
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.norm = nn.LayerNorm(config.hidden_size)
        self.head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.post_init()

    def post_init(self):
        self.apply(self._init_weights)

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            module.weight.data.normal_(mean=0.0, std=self.config.initializer_range)
            if module.bias is not None:
                module.bias.data.zero_()
        elif isinstance(module, nn.Embedding):
            module.weight.data.normal_(mean=0.0, std=self.config.initializer_range)
            if module.padding_idx is not None:
                module.weight.data[module.padding_idx].zero_()
        elif isinstance(module, nn.LayerNorm):
            module.bias.data.zero_()
            module.weight.data.fill_(1.0)


torch.manual_seed(0)
m = Model(Config())
report(pad=m.embed.weight[0], bias=m.dense.bias, ln=[m.norm.weight, m.norm.bias], std_ok=0.005 < m.dense.weight.std().item() < 0.05,
       head_ok=m.head.weight.abs().max().item() < 0.2, n=sum(p.numel() for p in m.parameters()))
