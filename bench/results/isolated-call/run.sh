#!/bin/bash
# Interleaved: the old commit's test binary and the new one, 6 rounds; then CPU per call.
cd /work/wt-sbx/sandbox
out=/tmp/res
rm -f $out/old.txt $out/new.txt $out/cpu.txt
echo "start: $(uptime)" > $out/load.txt
for i in 1 2 3 4 5 6; do
	/tmp/sbx-base.test -test.run '^$' -test.bench 'CallRegistry|PipeRoundTrip' -test.benchmem -test.count 1 | grep -E '^(Benchmark|goos|goarch|pkg|cpu)' >> $out/old.txt
	/tmp/sbx-new.test -test.run '^$' -test.bench 'CallRegistry|PipeRoundTrip' -test.benchmem -test.count 1 | grep -E '^(Benchmark|goos|goarch|pkg|cpu)' >> $out/new.txt
	echo "round $i: $(uptime)" >> $out/load.txt
done
for i in 1 2 3; do
	for b in base new; do
		/tmp/cpucall.sh /tmp/sbx-$b.test 'CallRegistryWorker$' >> $out/cpu.txt
		/tmp/cpucall.sh /tmp/sbx-$b.test 'CallRegistryConcurrent/calls=4/isolated=true' | sed 's/test /test c=4 /' >> $out/cpu.txt
	done
done
echo "end: $(uptime)" >> $out/load.txt
echo done >> $out/load.txt
