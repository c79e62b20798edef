#!/usr/bin/env python3
"""Where a client's own code spends its CPU, from a `perf record -g` profile of ThroughputBench.

    perf record -e cpu-clock -F 5000 -g -o ferry.data ThroughputBench ferry-ahc small-concurrent ...
    Benchmarks/perf-attribution.py ferry.data --requests 20000 [--module 5Ferry] [--top 40]

Each sample is charged to the innermost frame of the module (`5Ferry`, Ferry's mangling prefix; `15ThroughputBench`
for the raw clients), so a runtime function (swift_retain, malloc) counts for the module's function that called it.
Samples inside the engine's own request work, `HTTPClient.execute(request:delegate:…)` and `HTTPClient.Request.init`,
are left out: the raw clients call them too. Prints the module's microseconds of CPU per request and the functions
that take them. Async frames end a stack at the resumption, so a function's callers are not always on it.
"""
import argparse
import collections
import re
import subprocess

ENGINE = ("0B0C7execute7request8delegate", "0B0C7RequestV3url6method")


def samples(path):
    out = subprocess.run(["perf", "script", "-i", path, "-F", "comm,ip,sym"], capture_output=True, text=True).stdout
    for block in re.split(r"\n\s*\n", out):
        lines = [line.strip() for line in block.strip().split("\n") if line.strip()]
        if lines:
            yield [(line.split(" ", 1)[1] if " " in line else line).split("+")[0] for line in lines[1:]]


def demangle(symbol):
    result = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input=symbol, capture_output=True,
                            text=True)
    return result.stdout.strip()[:160]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("profile")
    parser.add_argument("--requests", type=int, required=True)
    parser.add_argument("--frequency", type=int, default=5000, help="perf record -F")
    parser.add_argument("--module", default="5Ferry")
    parser.add_argument("--top", type=int, default=40)
    arguments = parser.parse_args()
    per_sample = 1e6 / arguments.frequency / arguments.requests  # µs of CPU per request that one sample stands for
    total = engine = 0
    charged = collections.Counter()
    for frames in samples(arguments.profile):
        total += 1
        own = [frame for frame in frames if arguments.module in frame]
        if not own:
            continue
        if any(marker in frame for frame in frames for marker in ENGINE):
            engine += 1
            continue
        charged[own[0]] += 1
    print(f"all samples: {total} ({total * per_sample:.1f} µs a request)")
    print(f"the engine's request work called from {arguments.module}: {engine * per_sample:.1f} µs a request")
    print(f"{arguments.module}'s own code: {sum(charged.values()) * per_sample:.1f} µs a request")
    for symbol, count in charged.most_common(arguments.top):
        print(f"{count * per_sample:6.2f} µs  {demangle(symbol)}")


if __name__ == "__main__":
    main()
