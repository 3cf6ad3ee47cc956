#!/usr/bin/env python3
"""residency.py PID [FILE]: how much of a process's binary is resident.

For each mapping of FILE (default: the process's executable) it prints
the pages mapped, those present in the process's page tables (so counted
in its RSS), and those of them that belong to a large folio of the page
cache (a compound page: /proc/kpageflags, readable by root only).

On Linux 6.18 a page fault on a file mapping maps the whole large folio
the page is in, and otherwise the 64 KB around it (fault-around), so a
binary cached in large folios is resident nearly whole, whatever the
program touches. Whether a file's cache is in large folios depends on
how it was written or read and on the free memory at that moment: two
builds of the same program can differ by 10% of their size in RSS.

  python3 bench/residency.py $(pgrep -n agent)
"""
import os
import struct
import sys

KPF_COMPOUND_HEAD, KPF_COMPOUND_TAIL = 15, 16


def main():
    pid = int(sys.argv[1])
    path = sys.argv[2] if len(sys.argv) > 2 else os.readlink(f"/proc/{pid}/exe")
    try:
        flags = open("/proc/kpageflags", "rb")
    except OSError:
        flags = None
    total = present = large = 0
    with open(f"/proc/{pid}/pagemap", "rb") as pm:
        for line in open(f"/proc/{pid}/maps"):
            f = line.split()
            if len(f) < 6 or f[5] != path:
                continue
            lo, hi = (int(x, 16) for x in f[0].split("-"))
            n = (hi - lo) // 4096
            pm.seek(lo // 4096 * 8)
            entries = struct.unpack(f"<{n}Q", pm.read(n * 8))
            p = l = 0
            for e in entries:
                if not e >> 63:
                    continue
                p += 1
                pfn = e & ((1 << 55) - 1)
                if flags and pfn:
                    flags.seek(pfn * 8)
                    (k,) = struct.unpack("<Q", flags.read(8))
                    if k >> KPF_COMPOUND_HEAD & 1 or k >> KPF_COMPOUND_TAIL & 1:
                        l += 1
            print(f"{f[0]} {f[1]} pages {n} present {p} in large folios {l if flags else '?'}")
            total, present, large = total + n, present + p, large + l
    if total:
        print(f"{path}: {total} pages ({total * 4 / 1024:.1f} MB), present {present} ({100 * present / total:.0f}%), "
              f"in large folios {large if flags else '?'}")


if __name__ == "__main__":
    main()
