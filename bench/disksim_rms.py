#!/usr/bin/env python3
"""disksim_rms.py — the demerit as DiskSim 4.0's own `rms` tool computes it, for
bench/disksim-valid.sh: each distribution is a histogram on DiskSim's buckets
(the "Physical access time" buckets of an .outv file: values truncated to
microseconds, each bucket counting the values below its edge), its CDF printed
to six decimals as DiskSim prints it, and the RMS horizontal distance between
two such CDFs, piecewise linear between the bucket edges, over 10000 levels.
iomodel's own demerit (model/demerit.c) uses the raw samples instead, so the
two differ: DiskSim's 0.090 for the HP C2247A is this figure.

usage: disksim_rms.py OUTV [LOG]
  prints DiskSim's figure from OUTV (its simulated against the measured
  distribution); with LOG (iomodel replay --log) also the figure of the log's
  service times against the measured distribution OUTV holds.
"""
import bisect
import csv
import math
import sys

SIM = "IOdriver Physical access time distribution"
MEASURED = "VALIDATE Trace access time distribution"
LEVELS = 10000


def read_cdf(lines, name):
    """The bucket edges (ms) and the cumulative shares of distribution `name`."""
    try:
        i = lines.index(name)
    except ValueError:
        sys.exit("disksim_rms: no '%s' in the .outv file" % name)
    edges, cdf = [], []
    for line in lines[i + 1:]:
        f = line.split()
        if len(f) != 4:
            break
        edges.append(float(f[0]))
        cdf.append(float(f[3]))
        if cdf[-1] >= 1.0:
            break
    return edges, cdf


def binned_cdf(edges, values):
    """The CDF of `values` (ms) on DiskSim's buckets, as DiskSim prints it."""
    counts = [0] * len(edges)
    for v in values:
        us = math.floor(v * 1000 + 1e-9) / 1000	# DiskSim keeps whole microseconds
        counts[min(bisect.bisect_right(edges, us + 1e-9), len(edges) - 1)] += 1
    out, run = [], 0
    for c in counts:
        run += c
        out.append(round(run / len(values), 6))
    return out


def at_level(edges, cdf, i, p):
    """The value where the piecewise linear CDF reaches p (cdf[i - 1] < p <= cdf[i])."""
    if i == 0:
        return edges[0]
    return edges[i - 1] + (p - cdf[i - 1]) / (cdf[i] - cdf[i - 1]) * (edges[i] - edges[i - 1])


def rms(a, b):
    """RMS horizontal distance between two (edges, cdf) pairs."""
    (xa, ya), (xb, yb) = a, b
    ia = ib = 0
    total = 0.0
    for k in range(1, LEVELS + 1):
        p = k / LEVELS
        while ya[ia] < p - 1e-12:
            ia += 1
        while yb[ib] < p - 1e-12:
            ib += 1
        d = at_level(xa, ya, ia, p) - at_level(xb, yb, ib, p)
        total += d * d
    return math.sqrt(total / LEVELS)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: disksim_rms.py OUTV [LOG]")
    lines = open(sys.argv[1]).read().split("\n")
    measured = read_cdf(lines, MEASURED)
    print("disksim %.4f" % rms(read_cdf(lines, SIM), measured), end="")
    if len(sys.argv) == 3:
        with open(sys.argv[2]) as f:
            service = [float(r["service_ms"]) for r in csv.DictReader(f)]
        print(" iomodel %.4f" % rms((measured[0], binned_cdf(measured[0], service)), measured),
              end="")
    print()


if __name__ == "__main__":
    main()
