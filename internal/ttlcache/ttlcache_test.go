package ttlcache

import (
	"strconv"
	"testing"
	"time"
)

func TestExpiryAndBound(t *testing.T) {
	now := time.Unix(1000, 0)
	c := New[int](3)
	c.Put("a", 1, now.Add(time.Second))
	if v, ok := c.Get("a", now); !ok || v != 1 {
		t.Fatalf("live entry: %v %v", v, ok)
	}
	if _, ok := c.Get("a", now.Add(time.Second)); ok {
		t.Fatal("an entry is live at its deadline")
	}
	for i := 0; i < 10; i++ {
		c.Put(strconv.Itoa(i), i, now.Add(time.Minute))
	}
	if c.Len() != 3 {
		t.Fatalf("len %d, want the bound 3", c.Len())
	}
	c.Put("9", 90, now.Add(time.Minute)) // replacing a key never evicts
	if v, ok := c.Get("9", now); !ok || v != 90 || c.Len() != 3 {
		t.Fatalf("replace: %v %v len %d", v, ok, c.Len())
	}
}
