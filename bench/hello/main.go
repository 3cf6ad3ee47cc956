// Command hello prints one line: the baseline of the process start-up
// figures (bench/run.sh times `agent tools` against it).
package main

import "fmt"

func main() { fmt.Println("hello") }
