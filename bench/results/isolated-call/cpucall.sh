#!/bin/bash
# cpucall.sh BIN BENCH: CPU time, context switches and system calls per call, whole process tree,
# from the difference of two runs (2000 and 22000 calls); plus ns/op of the larger run.
bin=$1; bench=$2
cd /work/wt-sbx/sandbox
one() {
	perf stat -x, -e task-clock,context-switches,raw_syscalls:sys_enter $bin -test.run '^$' -test.bench "$bench" -test.benchtime ${1}x 2>/tmp/cpucall.$$ | awk '/ns\/op/ {print $3}' > /tmp/cpucall.ns.$$
	awk -F, '/task-clock/{t=$1} /context-switches/{c=$1} /sys_enter/{s=$1} END{print t, c, s}' /tmp/cpucall.$$
}
read t1 c1 s1 < <(one 2000)
read t2 c2 s2 < <(one 22000)
ns=$(cat /tmp/cpucall.ns.$$)
awk -v t1=$t1 -v t2=$t2 -v c1=$c1 -v c2=$c2 -v s1=$s1 -v s2=$s2 -v ns=$ns -v b=$(basename $bin) 'BEGIN{printf "%-16s cpu/call %6.1f µs  cs/call %5.2f  syscalls/call %5.2f  wall %6.1f µs/op\n", b, (t2-t1)*1000/20000, (c2-c1)/20000, (s2-s1)/20000, ns/1000}'
rm -f /tmp/cpucall.$$ /tmp/cpucall.ns.$$
