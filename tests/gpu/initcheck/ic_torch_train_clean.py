"""initcheck's clean PyTorch row (tests/gpu/initcheck/expected.txt): a few training steps of a
small model (embedding, layer norm, linear layers through cuBLAS, softmax, AdamW). Every tensor a
kernel reads was written first (torch.empty outputs are written by their kernels, cuBLAS
workspaces before they are read): initcheck must report nothing. Exits 0; prints SKIPPED and
exits 0 without PyTorch or a CUDA device."""
import sys

try:
    import torch
except ImportError:
    print("ic_torch_train_clean: SKIPPED: PyTorch is not installed")
    sys.exit(0)
if not torch.cuda.is_available():
    print("ic_torch_train_clean: SKIPPED: torch sees no CUDA device")
    sys.exit(0)


class Tiny(torch.nn.Module):
    def __init__(self, vocab=1024, dim=256):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, dim)
        self.norm = torch.nn.LayerNorm(dim)
        self.hidden = torch.nn.Linear(dim, dim)
        self.out = torch.nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.norm(self.emb(tokens))
        x = torch.softmax(self.hidden(x), dim=-1) * x
        return self.out(x)


def main():
    torch.manual_seed(0)
    model = Tiny().cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(5):
        tokens = torch.randint(0, 1024, (8, 128), device="cuda")
        logits = model(tokens)
        loss = torch.nn.functional.cross_entropy(logits.view(-1, 1024), tokens.view(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    torch.cuda.synchronize()
    print("done", float(loss))


if __name__ == "__main__":
    main()
