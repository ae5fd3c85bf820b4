"""Draws the figures of `Tools/bench e2e` (its --output JSON): time and
resident memory against collection size, live-repl beside firebase-admin,
curl and live-server's start. Run through `Tools/bench-chart`."""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SERIES = [
    ("repl_seconds", "live-repl: load, order, sections (whole process)", "tab:blue", "o-"),
    ("admin_seconds", "firebase-admin: ordered get() (whole process)", "tab:orange", "s-"),
    ("admin_get_seconds", "firebase-admin: the get() call alone", "tab:orange", "s--"),
    ("curl_seconds", "curl: raw transfer", "tab:gray", "^-"),
    ("server_start_seconds", "live-server --data: start", "tab:green", "d:"),
]
MEMORY = [
    ("repl_rss", "live-repl", "tab:blue", "o-"),
    ("admin_rss", "firebase-admin", "tab:orange", "s-"),
    ("server_rss", "live-server", "tab:green", "d:"),
]


def main():
    p = argparse.ArgumentParser(prog="Tools/bench-chart", description=__doc__.split("\n\n")[0])
    p.add_argument("figures", nargs="?", default=".build/bench-e2e.json")
    p.add_argument("--output", default="docs/benchmarks/e2e.png")
    args = p.parse_args()
    with open(args.figures) as f:
        results = json.load(f)
    sizes = results["sizes"]
    x = [s["children"] for s in sizes]
    fig, (time_ax, memory_ax) = plt.subplots(1, 2, figsize=(12, 4.8))
    def present(field):
        # A run without firebase-admin (--no-admin) has no figures for it.
        return all(s.get(field) is not None for s in sizes)

    for field, label, color, style in SERIES:
        if present(field):
            time_ax.plot(x, [s[field] for s in sizes], style, color=color, label=label)
    time_ax.set(xscale="log", yscale="log", xlabel="children", ylabel="seconds (median)",
                title="Time to a loaded collection")
    for field, label, color, style in MEMORY:
        if not present(field):
            continue
        memory_ax.plot(x, [s[field] / s["json_bytes"] for s in sizes], style, color=color, label=label)
    memory_ax.axhline(2, color="black", linewidth=0.8, linestyle="--", label="2x the JSON")
    memory_ax.set(xscale="log", yscale="log", xlabel="children", ylabel="peak resident memory / JSON size",
                  title="Memory, relative to the data")
    for ax in (time_ax, memory_ax):
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"LiveCollection end to end ({results['cores']} cores, median of {results['repeats']})")
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"chart written to {args.output}")


if __name__ == "__main__":
    main()
