import os, sys, struct, subprocess, time, collections, bisect
# pages.py BINARY ARGS... : start BINARY evicted from the page cache, wait for /readyz-less idle (1.5 s),
# then print the resident pages of its executable mapping by package.
exe = sys.argv[1]
fd = os.open(exe, os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED); os.close(fd)
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(1.5)
maps = []
for line in open('/proc/%d/maps' % p.pid):
    f = line.split()
    if len(f) >= 6 and f[5] == os.path.realpath(exe):
        a, b = [int(x, 16) for x in f[0].split('-')]
        maps.append((a, b, f[1]))
pm = open('/proc/%d/pagemap' % p.pid, 'rb')
present = []
for a, b, perm in maps:
    pm.seek(a // 4096 * 8)
    data = pm.read((b - a) // 4096 * 8)
    for i in range((b - a) // 4096):
        v = struct.unpack_from('<Q', data, i * 8)[0]
        if v >> 63 & 1:
            present.append(a + i * 4096)
p.terminate(); p.wait()
syms = []
for line in subprocess.run(['go', 'tool', 'nm', '-size', '-sort', 'address', exe], capture_output=True, text=True).stdout.splitlines():
    f = line.split(None, 3)
    if len(f) < 4: continue
    if f[2] not in 'TtRrDd': continue
    syms.append((int(f[0], 16), int(f[1]), f[3]))
addrs = [s[0] for s in syms]
def pkg(n):
    for pre in ('type:', 'go:itab.', 'go:', '*'):
        if n.startswith(pre): n = n[len(pre):]
    i = n.rfind('/'); j = n.find('.', i + 1)
    return n[:j] if j > 0 else n
c = collections.Counter()
for pg in present:
    i = bisect.bisect_right(addrs, pg) - 1
    name = syms[i][2] if i >= 0 else '?'
    seg = 'text' if any(a <= pg < b and 'x' in perm for a, b, perm in maps) else 'ro'
    c[(seg, pkg(name))] += 4
tot = collections.Counter()
for (seg, k), v in c.items(): tot[seg] += v
print('resident kB by segment', dict(tot))
for (seg, k), v in c.most_common(40):
    print(seg, v, k)
