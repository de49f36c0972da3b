import torch
import torch.nn as nn

r = {}
bil = det(nn.Bilinear(3, 4, 2))
r["bilinear"] = bil(data(2, 3, seed=1), data(2, 4, seed=2))
lazy = nn.LazyLinear(5)
y = lazy(torch.ones(2, 7))
r["lazy"] = [list(lazy.weight.shape), type(lazy).__name__]
r["identity_args"] = nn.Identity(54, unused="x")(torch.tensor([1.0])).tolist()
r["unflatten"] = nn.Unflatten(1, (2, 3))(torch.ones(4, 6)).shape
r["flatten_dims"] = nn.Flatten(0, 1)(torch.ones(2, 3, 4)).shape
r["cos_sim_mod"] = nn.CosineSimilarity(dim=0)(torch.tensor([1.0, 0.0]), torch.tensor([1.0, 1.0]))
r["pdist_mod"] = nn.PairwiseDistance(p=1)(torch.tensor([[1.0, 2.0]]), torch.tensor([[3.0, 5.0]]))
r["channel_shuffle"] = nn.ChannelShuffle(2)(torch.arange(4.).view(1, 4, 1, 1)).flatten()
r["fold"] = nn.Fold(output_size=(3, 3), kernel_size=2)(torch.ones(1, 4, 4))[0, 0]
r["unfold"] = nn.Unfold(kernel_size=2, padding=1)(torch.arange(4.).view(1, 1, 2, 2)).shape
r["dropout_eval"] = nn.Dropout(0.9).eval()(torch.ones(3))
r["alpha_dropout_eval"] = nn.AlphaDropout(0.5).eval()(torch.ones(2))
r["dropout_train_scale"] = sorted(set(nn.Dropout(0.5)(torch.ones(100)).tolist()))
r["dropout_p0"] = nn.Dropout(0.0)(torch.ones(2))
r["feature_alpha"] = nn.FeatureAlphaDropout(0.2).eval()(torch.ones(1, 2, 2)).sum()
r["embedding_bag_max"] = nn.EmbeddingBag(4, 2, mode="max").weight.shape
r["ln_normalized"] = nn.LayerNorm([2, 3]).normalized_shape
r["rnn_params"] = [n for n, _ in nn.GRU(2, 3, num_layers=1, bias=False).named_parameters()]
r["tr_decoder_layer"] = nn.TransformerDecoderLayer(8, 2, 16, batch_first=True)(torch.ones(1, 3, 8), torch.ones(1, 4, 8)).shape
r["softmax_mod"] = nn.Softmax(dim=-1)(torch.tensor([[1.0, 1.0]]))
report(**r)
