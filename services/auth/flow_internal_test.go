package auth

import (
	"context"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// Password checks run a bounded number at once; a sign-in that finds every
// slot taken until its deadline answers 503 rather than queueing without end.
func TestPasswordChecksAreBounded(t *testing.T) {
	f := &Flow{checking: make(chan struct{}, 1)}
	hash, err := HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	f.checking <- struct{}{} // the one slot, taken
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = f.checkPassword(ctx, hash, "correct horse battery")
	if e, ok := apierr.As(err); !ok || e.Code != apierr.ServiceUnavailable {
		t.Fatalf("with every slot taken: %v, want SERVICE_UNAVAILABLE", err)
	}
	<-f.checking
	if ok, err := f.checkPassword(context.Background(), hash, "correct horse battery"); !ok || err != nil {
		t.Fatalf("with a free slot: %v %v", ok, err)
	}
	if len(f.checking) != 0 {
		t.Fatal("the check kept its slot")
	}
}
