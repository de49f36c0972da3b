import torch
import torch.nn as nn


class Tok(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.vocab = {"a": 0}

    def get_extra_state(self):
        return {"vocab": dict(self.vocab)}

    def set_extra_state(self, state):
        self.vocab = state["vocab"]


t = Tok()
t.vocab["b"] = 1
sd = t.state_dict()
t2 = Tok()
t2.load_state_dict(sd)
torch.save(sd, "tok.pt")
t3 = Tok()
t3.load_state_dict(torch.load("tok.pt", weights_only=False))
report(keys=list(sd.keys()), v2=t2.vocab, v3=t3.vocab)
