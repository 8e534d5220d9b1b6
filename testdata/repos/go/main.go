// Command kvstore reads commands from stdin and applies them to an in-memory store.
package main

import (
	"bufio"
	"fmt"
	"os"

	"example.com/kvstore/command"
	kv "example.com/kvstore/store"
)

// usage is printed when the program is started with arguments.
const usage = "usage: kvstore < commands.txt"

// run executes every line read from scanner against st and returns the number of failures.
func run(st *kv.Store, scanner *bufio.Scanner) int {
	failures := 0
	for scanner.Scan() {
		cmd, err := command.Parse(scanner.Text())
		if err != nil {
			fmt.Println("error:", err)
			failures++
			continue
		}
		out, err := st.Execute(cmd)
		if err != nil {
			fmt.Println("error:", err)
			failures++
			continue
		}
		fmt.Println(out)
	}
	return failures
}

// main wires stdin to a fresh store and prints a snapshot summary at the end.
func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	st := kv.New()
	failures := run(st, bufio.NewScanner(os.Stdin))
	var snap kv.Snapshot = st.Snapshot()
	restored, err := kv.Parse(snap.Encode())
	if err != nil {
		fmt.Println("snapshot error:", err)
		os.Exit(1)
	}
	fmt.Println(st.Describe())
	fmt.Println(snap.Describe())
	if failures > 0 || len(restored.Keys) != len(snap.Keys) {
		os.Exit(1)
	}
}
