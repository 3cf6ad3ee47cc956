// Command firstanswer measures how long servers take from their start to
// the first 200 answer of a URL, and their resident memory once idle.
// Each server is a command line whose URL is given after "::"; the servers
// are started in turn, -n rounds interleaved, so that a slow spell of a
// shared machine spreads over all of them. It prints one line per server:
// the median, the fastest and slowest start, and the median idle RSS with
// its file-backed part (the binary's and the shared libraries' pages) and
// its anonymous part (the process's own memory) beside it.
//
// The file-backed part depends on the page cache as much as on the
// binary: on Linux 6.18 a fault maps a whole large folio of the page
// cache, and 64 KB around the fault otherwise, so a binary whose pages
// are cached in large folios is resident nearly whole, and one cached in
// 4 KB pages about 85%. Which a file gets depends on how it was written
// or read and on the memory free at that moment. Compare servers by the
// anonymous part, or with -cold: each binary is evicted from the page
// cache before each start, so that every round reads it from the disk
// and the medians spread over the kernel's choices of folios.
//
//	firstanswer -n 20 -- ./agent mcp -http 127.0.0.1:18000 :: http://127.0.0.1:18000/readyz \
//	                  -- ./gosdk -http 127.0.0.1:18001 :: http://127.0.0.1:18001/readyz
package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/toolreg/toolreg/bench/internal/servergroups"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type server struct {
	argv            []string
	url             string
	starts          []time.Duration
	rss, file, anon []int // kB
}

func main() {
	n := flag.Int("n", 20, "rounds")
	idle := flag.Duration("idle", 300*time.Millisecond, "how long a server is left idle before its memory is read")
	cold := flag.Bool("cold", false, "evict each server's executable from the page cache before each start (see the package doc)")
	flag.Parse()
	groups, err := servergroups.Parse(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "firstanswer:", err)
		os.Exit(2)
	}
	servers := make([]*server, len(groups))
	for i, g := range groups {
		servers[i] = &server{argv: g.Argv, url: g.URL}
	}
	client := &http.Client{Timeout: time.Second}
	for range *n {
		for _, s := range servers {
			if *cold {
				if err := dropCache(s.argv[0]); err != nil {
					fmt.Fprintln(os.Stderr, "firstanswer: -cold:", err)
					os.Exit(1)
				}
			}
			d, mem, err := run(client, s, *idle)
			if err != nil {
				fmt.Fprintf(os.Stderr, "firstanswer: %s: %v\n", strings.Join(s.argv, " "), err)
				os.Exit(1)
			}
			s.starts = append(s.starts, d)
			s.rss = append(s.rss, mem["VmRSS:"])
			s.file = append(s.file, mem["RssFile:"])
			s.anon = append(s.anon, mem["RssAnon:"])
		}
	}
	for _, s := range servers {
		slices.Sort(s.starts)
		fmt.Printf("%s\tfirst answer median %.1f ms (%.1f–%.1f)\tidle RSS median %.1f MB (file %.1f, anonymous %.1f)\n", strings.Join(s.argv, " "),
			ms(s.starts[len(s.starts)/2]), ms(s.starts[0]), ms(s.starts[len(s.starts)-1]), median(s.rss), median(s.file), median(s.anon))
	}
}

// median is the median of kB figures, in MB.
func median(kb []int) float64 {
	slices.Sort(kb)
	return float64(kb[len(kb)/2]) / 1024
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// run starts s, polls its URL until it answers 200, waits idle, reads
// its resident memory (the kB fields of /proc/PID/status, by name), and
// stops it with SIGTERM, as a service manager would: the agent then
// removes its workers' temporary directory, which SIGKILL left behind,
// one each round. A server still running 5 s later is killed.
func run(client *http.Client, s *server, idle time.Duration) (time.Duration, map[string]int, error) {
	ctx, stop := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, s.argv[0], s.argv[1:]...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	if err := cmd.Start(); err != nil {
		stop()
		return 0, nil, err
	}
	defer func() { stop(); cmd.Wait() }()
	var took time.Duration
	for {
		resp, err := client.Get(s.url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				took = time.Since(start)
				break
			}
		}
		if time.Since(start) > 10*time.Second {
			return 0, nil, fmt.Errorf("no 200 from %s in 10 s (last error %v)", s.url, err)
		}
		time.Sleep(200 * time.Microsecond)
	}
	time.Sleep(idle)
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		return 0, nil, err
	}
	mem := map[string]int{}
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[2] == "kB" {
			mem[f[0]], _ = strconv.Atoi(f[1])
		}
	}
	return took, mem, nil
}
