"""racecheck's clean PyTorch row (tests/gpu/racecheck/expected.txt): a few training steps of a small
model with an embedding, layer norm, attention-style softmax, a cumulative sum (CUB's look-back
scan) and AdamW. cuBLAS, cuDNN, CUB and PyTorch's own kernels synchronise correctly: racecheck
must report nothing. Exits 0; prints SKIPPED and exits 0 without PyTorch or a CUDA device."""
import sys

try:
    import torch
except ImportError:
    print("rc_torch_train_clean: SKIPPED: PyTorch is not installed")
    sys.exit(0)
if not torch.cuda.is_available():
    print("rc_torch_train_clean: SKIPPED: torch sees no CUDA device")
    sys.exit(0)


class Tiny(torch.nn.Module):
    def __init__(self, vocab=1024, dim=256):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, dim)
        self.norm = torch.nn.LayerNorm(dim)
        self.qkv = torch.nn.Linear(dim, 3 * dim)
        self.out = torch.nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.norm(self.emb(tokens))
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        att = torch.softmax(q @ k.transpose(-1, -2) / k.shape[-1] ** 0.5, dim=-1)
        x = x + att @ v
        x = x + torch.cumsum(x, dim=1) / (1 + torch.arange(x.shape[1], device=x.device)[:, None])
        return self.out(x)


def main():
    torch.manual_seed(0)
    model = Tiny().cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(5):
        tokens = torch.randint(0, 1024, (8, 128), device="cuda")
        logits = model(tokens)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), tokens.flatten())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    torch.cuda.synchronize()
    print("rc_torch_train_clean: loss %.3f" % loss.item())
    return 0


if __name__ == "__main__":
    sys.exit(main())
