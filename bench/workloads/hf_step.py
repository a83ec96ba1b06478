"""Benchmark workload: training steps of a Hugging Face `transformers` model built from a config
object (AutoConfig.for_model + from_config: random weights, nothing downloaded; HF_HUB_OFFLINE=1
is set), with bf16 autocast and AdamW. --model gpt2 (default): a causal LM, 4 layers, d_model 512,
8 heads, sequence 256, batch 16, vocabulary 8192, labels = inputs (the model shifts them);
--model bert: a masked LM of the same size, 15% of the positions labelled. Dropout as the
config's defaults. Prints BENCH_TIME_MS and the other BENCH_ lines of torch_bench.py; without
torch, transformers or CUDA, BENCH_SKIPPED.
"""
import os
import sys

import torch_bench


def build(torch, transformers, args, dev):
    """The model, its optimizer and data on dev; returns step(), which returns the loss."""
    auto = transformers.AutoConfig
    if args.model == "gpt2":
        config = auto.for_model("gpt2", vocab_size=args.vocab, n_positions=args.seq,
                                n_embd=args.d_model, n_layer=args.layers, n_head=8,
                                bos_token_id=0, eos_token_id=0, use_cache=False)
        model = transformers.AutoModelForCausalLM.from_config(config)
    else:
        config = auto.for_model("bert", vocab_size=args.vocab, hidden_size=args.d_model,
                                num_hidden_layers=args.layers, num_attention_heads=8,
                                intermediate_size=4 * args.d_model,
                                max_position_embeddings=args.seq, use_cache=False)
        model = transformers.AutoModelForMaskedLM.from_config(config)
    model.to(dev).train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    inputs = torch.randint(1, args.vocab, (args.batch, args.seq), device=dev)
    if args.model == "gpt2":
        labels = inputs
    else:
        picked = torch.rand(args.batch, args.seq, device=dev) < 0.15
        labels = torch.where(picked, inputs, torch.full_like(inputs, -100))

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast(dev.type, dtype=torch.bfloat16):
            loss = model(input_ids=inputs, labels=labels).loss
        loss.backward()
        opt.step()
        return loss

    return step


def main():
    ap = torch_bench.parser(__doc__)
    ap.add_argument("--model", choices=("gpt2", "bert"), default="gpt2")
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--d-model", type=int, default=512)
    ap.add_argument("--seq", type=int, default=256)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--vocab", type=int, default=8192)
    args = ap.parse_args()
    try:
        import torch  # noqa: F401 - only whether it is there; load_torch() says so
    except ImportError:
        print("BENCH_SKIPPED PyTorch is not installed")
        return 0
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        import transformers
    except ModuleNotFoundError as exc:
        if exc.name != "transformers":
            print("BENCH_SKIPPED transformers cannot be imported: %s" % torch_bench.one_line(exc))
        else:
            print("BENCH_SKIPPED transformers is not installed")
        return 0
    except Exception as exc:  # noqa: BLE001 - a broken installation is a skip reason too
        print("BENCH_SKIPPED transformers cannot be imported: %s" % torch_bench.one_line(exc))
        return 0
    torch = torch_bench.load_torch()
    if torch is None:
        return 0
    step = build(torch, transformers, args, torch.device("cuda"))
    return torch_bench.measure(torch, "hf_step (%s)" % args.model, args, step)


if __name__ == "__main__":
    sys.exit(main())
