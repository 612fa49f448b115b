package gateway

import (
	"bytes"
	"compress/gzip"
	"runtime"
	"testing"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// A gzip bomb costs the gateway no more than the cap: a 1 GiB body of zeros
// (about 1 MiB compressed) is refused after inflating 10 MiB, with memory
// allocated in proportion to the cap, not to the bomb.
func TestInflateStopsAtTheCap(t *testing.T) {
	// 1,024 gzip members of 1 MiB of zeros each: one stream (readers
	// inflate member after member) that inflates to 1 GiB.
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(make([]byte, 1<<20))
	_ = zw.Close()
	bomb := bytes.Repeat(buf.Bytes(), 1024)

	const capBytes = 10 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := inflate(bomb, capBytes)
	runtime.ReadMemStats(&after)
	if apierr.CodeOf(err) != apierr.PayloadTooLarge {
		t.Fatalf("1 GiB bomb: %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 3*capBytes {
		t.Errorf("inflating the bomb allocated %d bytes; the cap is %d", alloc, capBytes)
	}

	// Exactly the cap is accepted.
	buf.Reset()
	zw = gzip.NewWriter(&buf)
	_, _ = zw.Write(make([]byte, capBytes))
	_ = zw.Close()
	out, err := inflate(buf.Bytes(), capBytes)
	if err != nil || len(out) != capBytes {
		t.Fatalf("%d bytes, %v", len(out), err)
	}
}
