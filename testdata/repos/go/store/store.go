// Package store implements a small in-memory key-value store.
package store

import (
	"fmt"
	"sort"
	"strings"

	"example.com/kvstore/command"
)

// MaxKeyLen is the longest key the store accepts.
const MaxKeyLen = 64

// Store maps keys to string values and counts writes.
type Store struct {
	data   map[string]string
	writes int
}

// New returns an empty store.
func New() *Store {
	return &Store{data: make(map[string]string)}
}

// Set stores value under key, rejecting keys that are too long.
func (s *Store) Set(key, value string) error {
	if len(key) > MaxKeyLen {
		return fmt.Errorf("key too long: %d > %d", len(key), MaxKeyLen)
	}
	s.data[key] = value
	s.writes++
	return nil
}

// Get returns the value stored under key.
func (s *Store) Get(key string) (string, bool) {
	v, ok := s.data[key]
	return v, ok
}

// Keys returns all keys in sorted order.
func (s *Store) Keys() []string {
	keys := make([]string, 0, len(s.data))
	for k := range s.data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Execute applies cmd to the store and returns the text to print.
func (s *Store) Execute(cmd command.Command) (string, error) {
	key := cmd.Args[0]
	switch cmd.Op {
	case command.OpGet:
		v, ok := s.Get(key)
		if !ok {
			return "", fmt.Errorf("no such key: %s", key)
		}
		return v, nil
	case command.OpSet:
		return "OK", s.Set(key, strings.Join(cmd.Args[1:], " "))
	default:
		delete(s.data, key)
		return "OK", nil
	}
}

// Describe summarizes the store for humans.
func (s *Store) Describe() string {
	return fmt.Sprintf("store: %d keys, %d writes, depth %d", len(s.data), s.writes, s.maxDepth())
}

// String implements fmt.Stringer on top of Describe.
func (s *Store) String() string {
	return "<" + s.Describe() + ">"
}

// Snapshot copies the current contents in key order.
func (s *Store) Snapshot() Snapshot {
	keys := s.Keys()
	values := make(map[string]string, len(keys))
	for _, k := range keys {
		values[k] = s.data[k]
	}
	return Snapshot{Keys: keys, Values: values}
}

// maxDepth returns the number of segments of the deepest key.
func (s *Store) maxDepth() int {
	deepest := 0
	for k := range s.data {
		deepest = max(deepest, depth(k))
	}
	return deepest
}

// max returns the larger of a and b; it shadows the builtin max of newer Go versions.
func max(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// depth counts the slash-separated segments of key.
func depth(key string) int {
	if i := strings.Index(key, "/"); i >= 0 {
		return 1 + depth(key[i+1:])
	}
	return 1
}
