"""The book's ``CausalAttention`` (section 3.5.3) in PyTorch, shared by the oracle tests.

Import it only after ``pytest.importorskip("torch")``: the tests that need it skip cleanly
without torch.
"""

import torch
from torch import nn


class CausalAttention(nn.Module):
    """The book's class as printed; it also keeps its last weights (before dropout) in ``attn_weights``."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        _, num_tokens, _ = x.shape
        keys, queries, values = self.W_key(x), self.W_query(x), self.W_value(x)
        attn_scores = queries @ keys.transpose(1, 2)
        attn_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        self.attn_weights = attn_weights
        return self.dropout(attn_weights) @ values
