"""Benchmark workload: training steps of a GPT-style language model (pre-norm blocks of causal
scaled-dot-product attention and a GELU MLP; 4 layers, d_model 512, 8 heads, sequence 256, batch
16, vocabulary 8192: transformer_step.py's shape) whose forward pass and loss run through
torch.compile(mode="reduce-overhead"): Triton kernels from Inductor, replayed as CUDA graphs, for
the backward pass too. bf16 autocast inside the compiled region, AdamW outside it. The warm-up
steps compile, warm up and record the graphs, so at least 3 run whatever --warmup says; each
step begins with torch.compiler.cudagraph_mark_step_begin(). Prints BENCH_TIME_MS and the other
BENCH_ lines of torch_bench.py; without torch or CUDA, or when torch.compile is missing or fails,
BENCH_SKIPPED with the reason.
"""
import sys

import torch_bench

MIN_WARMUP = 3


class CompileFailed(Exception):
    """torch.compile() itself refused the model."""


def build(torch, args, dev, mode="reduce-overhead"):
    """The compiled model, its optimizer and data on dev; returns step(), which returns the loss."""
    nn = torch.nn
    F = torch.nn.functional
    heads = 8

    class Block(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.ln1 = nn.LayerNorm(d)
            self.qkv = nn.Linear(d, 3 * d)
            self.proj = nn.Linear(d, d)
            self.ln2 = nn.LayerNorm(d)
            self.fc = nn.Linear(d, 4 * d)
            self.out = nn.Linear(4 * d, d)

        def forward(self, x):
            b, t, d = x.shape
            q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
            q, k, v = (y.view(b, t, heads, d // heads).transpose(1, 2) for y in (q, k, v))
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(y.transpose(1, 2).reshape(b, t, d))
            return x + self.out(F.gelu(self.fc(self.ln2(x))))

    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(args.vocab, args.d_model)
            self.pos = nn.Parameter(torch.zeros(args.seq, args.d_model))
            self.blocks = nn.ModuleList(Block(args.d_model) for _ in range(args.layers))
            self.ln = nn.LayerNorm(args.d_model)
            self.head = nn.Linear(args.d_model, args.vocab)

        def forward(self, tokens, targets):
            with torch.autocast(dev.type, dtype=torch.bfloat16):
                x = self.embed(tokens) + self.pos
                for block in self.blocks:
                    x = block(x)
                logits = self.head(self.ln(x))
            return F.cross_entropy(logits.float().view(-1, args.vocab), targets.reshape(-1))

    model = LM().to(dev)
    try:
        compiled = torch.compile(model, mode=mode)
    except Exception as exc:  # noqa: BLE001 - any refusal is a skip reason
        raise CompileFailed(torch_bench.one_line(exc)) from exc
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    tokens = torch.randint(0, args.vocab, (args.batch, args.seq + 1), device=dev)
    inputs, targets = tokens[:, :-1].contiguous(), tokens[:, 1:].contiguous()
    mark = getattr(getattr(torch, "compiler", None), "cudagraph_mark_step_begin", None)

    def step():
        if mark is not None:
            mark()
        opt.zero_grad(set_to_none=True)
        loss = compiled(inputs, targets)
        loss.backward()
        opt.step()
        return loss

    return step


def main():
    ap = torch_bench.parser(__doc__)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--d-model", type=int, default=512)
    ap.add_argument("--seq", type=int, default=256)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--vocab", type=int, default=8192)
    args = ap.parse_args()
    torch = torch_bench.load_torch()
    if torch is None:
        return 0
    if not hasattr(torch, "compile"):
        print("BENCH_SKIPPED torch.compile is not available (PyTorch %s)" % torch.__version__)
        return 0
    if args.warmup < MIN_WARMUP:
        print("compiled_step: %d warm-up steps, not %d (compilation and CUDA graph recording)"
              % (MIN_WARMUP, args.warmup))
        args.warmup = MIN_WARMUP
    try:
        step = build(torch, args, torch.device("cuda"))
    except CompileFailed as exc:
        print("BENCH_SKIPPED torch.compile failed: %s" % exc)
        return 0
    return torch_bench.measure(torch, "compiled_step", args, step, warmup_fails_as="torch.compile")


if __name__ == "__main__":
    sys.exit(main())
