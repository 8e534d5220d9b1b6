package store

import (
	"fmt"
	"strings"
)

// Snapshot is an immutable copy of a store's contents.
type Snapshot struct {
	Keys   []string
	Values map[string]string
}

// Describe summarizes the snapshot for humans.
func (sn Snapshot) Describe() string {
	return fmt.Sprintf("snapshot: %d keys", len(sn.Keys))
}

// Encode serializes the snapshot as `key=value` lines.
func (sn Snapshot) Encode() string {
	var b strings.Builder
	for _, k := range sn.Keys {
		b.WriteString(k + "=" + sn.Values[k] + "\n")
	}
	return b.String()
}

// Parse reads a snapshot back from the output of Encode.
func Parse(text string) (Snapshot, error) {
	sn := Snapshot{Values: map[string]string{}}
	if text == "" {
		return sn, nil
	}
	for i, line := range strings.Split(strings.TrimSpace(text), "\n") {
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			return sn, fmt.Errorf("line %d: missing '='", i+1)
		}
		sn.Keys = append(sn.Keys, key)
		sn.Values[key] = value
	}
	return sn, nil
}
