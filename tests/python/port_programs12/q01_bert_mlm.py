import math
import torch
import torch.nn as nn
import torch.nn.functional as F
class Cfg:
    vocab_size = 30; hidden_size = 16; num_attention_heads = 2; intermediate_size = 32; max_position_embeddings = 12; type_vocab_size = 2; layer_norm_eps = 1e-12; num_hidden_layers = 2
class BertEmbeddings(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size, padding_idx=0)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.hidden_size)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.hidden_size)
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(0.0)
        self.register_buffer("position_ids", torch.arange(config.max_position_embeddings).expand((1, -1)), persistent=False)
    def forward(self, input_ids, token_type_ids=None):
        seq_length = input_ids.size(1)
        position_ids = self.position_ids[:, :seq_length]
        if token_type_ids is None:
            token_type_ids = torch.zeros(input_ids.size(), dtype=torch.long, device=input_ids.device)
        emb = self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids) + self.position_embeddings(position_ids)
        return self.dropout(self.LayerNorm(emb))
class BertSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_attention_heads = config.num_attention_heads
        self.attention_head_size = config.hidden_size // config.num_attention_heads
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.query = nn.Linear(config.hidden_size, self.all_head_size)
        self.key = nn.Linear(config.hidden_size, self.all_head_size)
        self.value = nn.Linear(config.hidden_size, self.all_head_size)
    def transpose_for_scores(self, x):
        new_x_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        x = x.view(new_x_shape)
        return x.permute(0, 2, 1, 3)
    def forward(self, hidden_states, attention_mask=None):
        q = self.transpose_for_scores(self.query(hidden_states))
        k = self.transpose_for_scores(self.key(hidden_states))
        v = self.transpose_for_scores(self.value(hidden_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.attention_head_size)
        if attention_mask is not None:
            scores = scores + attention_mask
        probs = nn.functional.softmax(scores, dim=-1)
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        return ctx.view(ctx.size()[:-2] + (self.all_head_size,))
class BertLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attention = BertSelfAttention(config)
        self.attn_out = nn.Linear(config.hidden_size, config.hidden_size)
        self.ln1 = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.intermediate = nn.Linear(config.hidden_size, config.intermediate_size)
        self.output = nn.Linear(config.intermediate_size, config.hidden_size)
        self.ln2 = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
    def forward(self, h, mask):
        h = self.ln1(h + self.attn_out(self.attention(h, mask)))
        return self.ln2(h + self.output(F.gelu(self.intermediate(h))))
class BertForMaskedLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embeddings = BertEmbeddings(config)
        self.layer = nn.ModuleList([BertLayer(config) for _ in range(config.num_hidden_layers)])
        self.transform = nn.Linear(config.hidden_size, config.hidden_size)
        self.transform_ln = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.decoder = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.bias = nn.Parameter(torch.zeros(config.vocab_size))
    def tie(self):
        self.decoder.weight = self.embeddings.word_embeddings.weight
    def forward(self, input_ids, attention_mask, labels=None):
        ext = attention_mask[:, None, None, :].to(dtype=torch.float32)
        ext = (1.0 - ext) * torch.finfo(torch.float32).min
        h = self.embeddings(input_ids)
        for layer in self.layer:
            h = layer(h, ext)
        logits = self.decoder(self.transform_ln(F.gelu(self.transform(h)))) + self.bias
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits.view(-1, self.config.vocab_size), labels.view(-1))
        return loss, logits
cfg = Cfg()
model = det(BertForMaskedLM(cfg)); model.tie()
ids = ints(28, 3, 10) + 2
mask = torch.ones_like(ids); mask[0, 7:] = 0; mask[2, 5:] = 0
ids = ids.masked_fill(mask == 0, 0)
labels = ids.clone()
prob = torch.from_numpy(__import__("numpy").random.RandomState(5).rand(3, 10).astype("float32"))
masked = (prob < 0.3) & mask.bool()
labels[~masked] = -100
ids_in = ids.clone(); ids_in[masked] = 1
no_decay = ["bias", "LayerNorm.weight", "ln1.weight", "ln2.weight", "transform_ln.weight"]
groups = [{"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
          {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0}]
opt = torch.optim.AdamW(groups, lr=1e-2, eps=1e-6)
total, warm = 6, 2
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: s / max(1, warm) if s < warm else max(0.0, (total - s) / max(1, total - warm)))
losses = []
for step in range(total):
    loss, logits = model(ids_in, mask, labels)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step(); sched.step(); opt.zero_grad()
    losses.append(loss.item())
model.eval()
with torch.no_grad():
    _, logits = model(ids_in, mask)
pred = logits.argmax(-1)
acc = (pred[masked] == ids[masked]).float().mean()
report(losses=losses, n_masked=int(masked.sum()), tied=model.decoder.weight is model.embeddings.word_embeddings.weight,
       nparams=sum(p.numel() for p in model.parameters()), nsd=len(model.state_dict()), acc=acc, lr=sched.get_last_lr(),
       logit_sum=logits.sum().item(), ngroups=[len(g["params"]) for g in opt.param_groups])
