import torch
import torch.nn.functional as F

x = data(2, 3, 5)
res = {
    "norm_eps": F.normalize(torch.zeros(2, 3), dim=1), "norm_p1": F.normalize(x, p=1, dim=-1)[0, 0],
    "pad_reflect": F.pad(torch.arange(5.0).view(1, 1, 5), (2, 1), mode="reflect"),
    "pad_circular": F.pad(torch.arange(4.0).view(1, 1, 2, 2), (1, 1, 1, 0), mode="circular"),
    "pad_neg": F.pad(torch.arange(6.0).view(2, 3), (-1, 0)), "pad_const": F.pad(torch.ones(2), (1, 2), value=-3.0),
    "pad_replicate": F.pad(torch.arange(3.0).view(1, 3), (2, 2), mode="replicate"),
    "onehot_auto": F.one_hot(torch.tensor([0, 3, 1])), "softmax_neg": F.softmax(x, dim=-2)[0, :, 0],
    "logsm_dtype": F.log_softmax(x, dim=1, dtype=torch.float64).dtype, "softmin": F.softmin(x[0, 0], 0),
    "elu": F.elu(x[0, 0], alpha=0.5), "celu": F.celu(x[0, 0], alpha=2.0), "selu": F.selu(x[0, 1]),
    "hardtanh": F.hardtanh(x[0, 0], -0.5, 0.5), "rrelu_eval": F.rrelu(x[0, 0], training=False),
    "threshold": F.threshold(x[0, 0], 0.1, 20.0), "glu": F.glu(x[..., :4], dim=-1)[0], "softplus": F.softplus(x[0, 0], beta=2, threshold=1),
    "logsigmoid": F.logsigmoid(x[1, 1]), "tanhshrink": F.tanhshrink(x[1, 0]), "softsign": F.softsign(x[1, 2]),
    "hardshrink": F.hardshrink(x[1, 2], 0.8), "leaky": F.leaky_relu(x[1, 0], 0.2), "relu6": F.relu6(x[1, 0] * 5),
    "cos_sim_eps": F.cosine_similarity(torch.zeros(3), torch.ones(3), dim=0), "pdist": F.pdist(x[0]),
}
report(**res)
