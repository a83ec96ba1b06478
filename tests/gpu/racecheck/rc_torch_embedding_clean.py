"""racecheck's clean PyTorch row for the patched code's stack (tests/gpu/racecheck/expected.txt):
the backward pass of a large embedding sorts its token ids with CUB (radix sort histogram,
onesweep, unique-by-key and look-back scans), kernels whose stacks and registers leave little
room for the patch calls. Run with only CUB's kernels checked, racecheck ended in an illegal
address in 4 runs of 4 on the H200 until the agent raised each context's stack limit
(src/agent/instr/instr_stack.c). Clean: racecheck must report nothing and the program must
finish. Exits 0; prints SKIPPED and exits 0 without PyTorch or a CUDA device."""
import sys

try:
    import torch
except ImportError:
    print("rc_torch_embedding_clean: SKIPPED: PyTorch is not installed")
    sys.exit(0)
if not torch.cuda.is_available():
    print("rc_torch_embedding_clean: SKIPPED: torch sees no CUDA device")
    sys.exit(0)


def main():
    torch.manual_seed(0)
    vocab, dim, batch, seq = 8192, 512, 16, 256  # bench/workloads/transformer_step.py's shapes
    emb = torch.nn.Embedding(vocab, dim).cuda()
    head = torch.nn.Linear(dim, vocab).cuda()
    opt = torch.optim.SGD(list(emb.parameters()) + list(head.parameters()), lr=1e-2)
    for _ in range(3):
        tokens = torch.randint(0, vocab, (batch, seq), device="cuda")
        logits = head(emb(tokens))
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), tokens.flatten())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    torch.cuda.synchronize()
    print("rc_torch_embedding_clean: loss %.3f" % loss.item())
    return 0


if __name__ == "__main__":
    sys.exit(main())
