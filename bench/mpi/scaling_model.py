#!/usr/bin/env python3
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""A scaling MODEL of the hybrid kernels on 2-1000 nodes, from costs
measured on one node.  It predicts; it measures nothing.

    bench/mpi/scaling_model.py RESULTS.json [--cores 64] [--halo-raw-us US] ...

RESULTS.json is what `xomp bench --mpi 2x1,1x2 --class small` wrote.  Times
are each cell's fastest repetition (on a shared machine the one least
disturbed by others).  From it, per kernel, the serial time S and the work
units U of the class give the time of one unit of work, t = S / U (a UTS
node, a heat point update, a PoSp hash); per runtime, the 1 rank x 2
threads cell gives the runtime's core time per task beyond the work,
c = (time x 2 - S) / tasks (EPCC's overhead, at 2 threads: on more cores a
runtime with a shared task queue pays more, so the model understates that
part); the 2 x 1 mpi-heat cell's
metric halo_wait_us (the time per sweep its wait task stayed blocked)
against --halo-raw-us (one ghost row's one-way time alone, printed by
mpi-heat on stderr) gives the share h of a halo message the interior
computation hides.

The network is not measured (one machine): --alpha-us (latency, also the
cost of a remote atomic's round trip / 2), --beta-gbs (injection bandwidth
per node), --overhead-us (CPU time to send or take one message) default to
a 100 Gb/s InfiniBand-class fabric.

One rank per node, --cores threads each, strong scaling of one large
problem per kernel (below).  Per kernel and node count P:

  uts   N nodes (T1XL: 1,635,119,272), frontier F = 256 P subtrees:
        T = 1.33 F t                      (every rank expands the frontier)
          + N (t + c) / (P C)             (the subtrees, C threads per node)
          + (256 / C) 2 alpha             (each thread's claims, round trips)
          + N (t + c) / (F C)             (the last subtree, on one node)
  heat  N x N points, SWEEPS, blocks of B rows, R = N / P rows per node:
        per sweep  compute = R N t / C + (R / B + 2) c / C
                   message = alpha + 2 x 8 N / beta (both ghost rows)
                   exposed = max(0, message - h x compute x (1 - 2B/R))
        T = SWEEPS (compute + exposed)
  posp  n = 2^32 nonces, tasks of B, each sends to every owner it has
        records for: m = min(P - 1, B) messages per task:
        cpu = (n / P) t / C + (n / (P B)) (c + 2 m overhead) / C
        net = 32 n (P - 1) / P^2 / beta   (the records leaving a node)
        T = max(cpu, net) + alpha
Efficiency = the perfect time (work alone, N t / (P C)) / T.
"""
import argparse
import json
import re
import sys

UTS_NODES = {  # published sizes (bench/common/uts_tree.c), and the test class's recount
    "t=geo,a=fixed,b=4,d=6,r=19": 16000,
    "t=geo,a=fixed,b=4,d=10,r=19": 4130071,
    "t=bin,b=2000,q=0.124875,m=8,r=42": 4112897,
    "t=geo,a=fixed,b=4,d=13,r=29": 102181082,
}
LARGE = {
    "mpi-uts": {"nodes": 1635119272},                       # T1XL
    "mpi-heat": {"n": 65536, "sweeps": 1000, "block": 64},
    "mpi-posp": {"nonces": 2 ** 32, "batch": 4096},
}
NODE_COUNTS = (2, 4, 8, 16, 32, 64, 128, 256, 512, 1000)


def work_units(kernel, param):
    if kernel == "mpi-uts":
        return UTS_NODES.get(param.replace("_", "="))
    nums = [int(v) for v in re.findall(r"\d+", param)]
    if kernel == "mpi-heat" and len(nums) >= 2:
        return (nums[0] - 2) ** 2 * nums[1]
    if kernel == "mpi-posp" and len(nums) >= 2:
        return 2 ** nums[1]
    return None


def measured(results):
    """{kernel: {"t": s per unit, "c": {runtime: s per task}, "halo_us": {runtime: us}}}"""
    cells = [c for c in results["cells"] if not c.get("failed")]
    out = {}
    for c in cells:
        if c["mode"] != "serial":
            continue
        units = work_units(c["kernel"], c["param"])
        if units:
            out[c["kernel"]] = {"t": c["min_s"] / units, "c": {}, "halo_us": {},
                                "serial_s": c["min_s"]}
    for c in cells:
        k = out.get(c["kernel"])
        if not k or c["mode"] != "parallel":
            continue
        if c.get("ranks", 1) == 1 and c["threads"] == 2 and c.get("tasks"):
            k["c"][c["runtime"]] = max(0.0, (c["min_s"] * 2 - k["serial_s"]) / c["tasks"])
        if c.get("ranks") == 2 and c["threads"] == 1 and c.get("metric"):
            k["halo_us"][c["runtime"]] = c["metric"][1]
    return out


def uts(t, c, p, a):
    n = LARGE["mpi-uts"]["nodes"]
    f = 256 * p
    cores = a.cores
    total = (1.33 * f * t + n * (t + c) / (p * cores) + (256 / cores) * 2 * a.alpha_us * 1e-6
             + n * (t + c) / (f * cores))
    return total, n * t / (p * cores)


def heat(t, c, h, p, a):
    n, sweeps, block = (LARGE["mpi-heat"][k] for k in ("n", "sweeps", "block"))
    rows = n / p
    compute = rows * n * t / a.cores + (rows / block + 2) * c / a.cores
    message = a.alpha_us * 1e-6 + 2 * 8 * n / (a.beta_gbs * 1e9)
    interior = max(0.0, 1 - 2 * block / rows)
    exposed = max(0.0, message - h * compute * interior)
    return sweeps * (compute + exposed), sweeps * rows * n * t / a.cores


def posp(t, c, p, a):
    n, batch = LARGE["mpi-posp"]["nonces"], LARGE["mpi-posp"]["batch"]
    per_task_msgs = min(p - 1, batch)
    cpu = ((n / p) * t / a.cores
           + (n / (p * batch)) * (c + 2 * per_task_msgs * a.overhead_us * 1e-6) / a.cores)
    net = 32 * n * (p - 1) / p ** 2 / (a.beta_gbs * 1e9)
    return max(cpu, net) + a.alpha_us * 1e-6, (n / p) * t / a.cores


def fmt_time(s):
    return f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s" if s < 100 else f"{s:.0f} s"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="results.json of xomp bench --mpi 2x1,1x2 --class small")
    ap.add_argument("--cores", type=int, default=64, help="cores (threads) per node (64)")
    ap.add_argument("--alpha-us", type=float, default=1.5, help="network latency, us (1.5)")
    ap.add_argument("--beta-gbs", type=float, default=12.5,
                    help="injection bandwidth per node, GB/s (12.5)")
    ap.add_argument("--overhead-us", type=float, default=0.5,
                    help="CPU time to send or to take one message, us (0.5)")
    ap.add_argument("--unit-ns", action="append", default=[], metavar="KERNEL=NS",
                    help="replace a measured time per work unit (repeatable)")
    ap.add_argument("--task-ns", action="append", default=[], metavar="KERNEL:RUNTIME=NS",
                    help="replace a measured per-task cost (repeatable), e.g. from a quiet "
                         "machine's single-node bench")
    ap.add_argument("--halo-raw-us", type=float,
                    help="one ghost row's one-way time alone (mpi-heat's stderr); "
                         "without it the halo is taken as not hidden at all")
    a = ap.parse_args(argv)
    with open(a.results) as f:
        m = measured(json.load(f))
    missing = [k for k in LARGE if k not in m]
    if missing:
        sys.exit(f"scaling_model: no serial cell for {', '.join(missing)} in {a.results}")
    try:
        for item in a.unit_ns:
            kernel, value = item.split("=")
            m[kernel]["t"] = float(value) * 1e-9
        for item in a.task_ns:
            which, value = item.split("=")
            kernel, runtime = which.split(":")
            m[kernel]["c"][runtime] = float(value) * 1e-9
    except (ValueError, KeyError) as err:
        sys.exit(f"scaling_model: bad --unit-ns/--task-ns ({err})")
    runtimes = sorted(set(m["mpi-uts"]["c"]) & set(m["mpi-heat"]["c"]) & set(m["mpi-posp"]["c"]))
    print("Measured on one node (inputs):\n")
    print("| kernel | work unit | t per unit | " + " | ".join(f"c {r} (per task)" for r in runtimes)
          + " |")
    print("|---|---|---:|" + "---:|" * len(runtimes))
    unit = {"mpi-uts": "tree node", "mpi-heat": "point update", "mpi-posp": "hash"}
    for k in LARGE:
        print(f"| {k} | {unit[k]} | {m[k]['t'] * 1e9:.1f} ns | "
              + " | ".join(f"{m[k]['c'][r] * 1e9:.0f} ns" for r in runtimes) + " |")
    hidden = {}
    for r in runtimes:
        wait = m["mpi-heat"]["halo_us"].get(r)
        hidden[r] = (max(0.0, min(1.0, 1 - wait / a.halo_raw_us))
                     if a.halo_raw_us and wait is not None else 0.0)
    print("\nhalo share hidden h: " + ", ".join(
        f"{r} {hidden[r]:.2f} (waited {m['mpi-heat']['halo_us'].get(r, float('nan')):.1f} us "
        f"per sweep)" for r in runtimes)
          + (f"; one row alone {a.halo_raw_us:.1f} us" if a.halo_raw_us else
             "; no --halo-raw-us: h = 0"))
    print(f"\nModel: {a.cores} cores per node, alpha {a.alpha_us} us, beta {a.beta_gbs} GB/s, "
          f"{a.overhead_us} us per message.  UTS T1XL (1.64 G nodes); heat 65536^2, 1000 sweeps, "
          f"B=64; PoSp 2^32 hashes, B=4096.  Time (efficiency):\n")
    head = ["nodes"] + [f"{k} {r}" for k in LARGE for r in runtimes]
    print("| " + " | ".join(head) + " |")
    print("|---:|" + "---:|" * (len(head) - 1))
    for p in NODE_COUNTS:
        row = [str(p)]
        for k in LARGE:
            for r in runtimes:
                t, c = m[k]["t"], m[k]["c"][r]
                total, ideal = (uts(t, c, p, a) if k == "mpi-uts" else
                                heat(t, c, hidden[r], p, a) if k == "mpi-heat" else
                                posp(t, c, p, a))
                row.append(f"{fmt_time(total)} ({ideal / total:.0%})")
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
