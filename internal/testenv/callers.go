package testenv

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"

	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/services/auth"
)

// DialCore connects to the environment's core with token as the bearer (the
// gateway's, an internal caller's, or anything a test wants refused), with
// opts added to the connection.
func (e *Env) DialCore(t testing.TB, token string, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	conn, err := platform.DialCore("passthrough:///core", token, append(opts, grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
		return e.dial(ctx)
	}))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// InternalCaller issues an internal caller, as the operator command does,
// limited to services when any are named, and returns its token.
func (e *Env) InternalCaller(t testing.TB, name string, services ...string) string {
	t.Helper()
	issued, err := e.Auth.CreateInternalCaller(context.Background(), auth.NewInternalCaller{Name: name, Services: services})
	if err != nil {
		t.Fatal(err)
	}
	return issued.Token
}

// CoreDialer is the dial option that reaches the environment's core, for
// code under test that dials core itself (mpserver admin calendar).
func (e *Env) CoreDialer() grpc.DialOption {
	return grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return e.dial(ctx) })
}
