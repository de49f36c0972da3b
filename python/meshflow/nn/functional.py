"""meshflow.nn.functional: softmax, log_softmax, layer_norm, embedding, cross_entropy, relu, gelu, ..."""
