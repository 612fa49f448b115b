package platform

import (
	"context"
	"crypto/tls"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"

	"github.com/mallplatform/partnerapi/internal/grpccodec"
	"github.com/mallplatform/partnerapi/internal/policy"
)

// bearer adds the caller's credential to every call to core. gRPC only reads
// the returned map, so one map serves every call.
type bearer struct{ md map[string]string }

func newBearer(token string) bearer {
	return bearer{md: map[string]string{"authorization": "Bearer " + token}}
}

func (b bearer) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return b.md, nil
}

// RequireTransportSecurity is false: plaintext stays possible for the dev
// role and behind a mesh that adds mTLS itself; deployments without one dial
// with CoreTLS.
func (bearer) RequireTransportSecurity() bool { return false }

// Keepalive of the connection to core; see DialCore.
const (
	coreKeepaliveTime    = 10 * time.Second
	coreKeepaliveTimeout = 3 * time.Second
)

// DialCore connects to the core tier with a caller's credential (the
// gateway's token, or an internal caller's), in plaintext unless extra
// holds CoreTLS. The
// connection is lazy: it is established on first use and re-established on
// failure, so a gateway may start before core.
func DialCore(target, token string, extra ...grpc.DialOption) (*grpc.ClientConn, error) {
	opts := append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(newBearer(token)),
		// A core replica that stops answering (frozen, or its node gone
		// without a reset) leaves the rotation once a ping goes unanswered:
		// within 13 s of its last frame instead of 40 s. 10 s is gRPC's
		// floor and core's keepalive enforcement minimum.
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: coreKeepaliveTime, Timeout: coreKeepaliveTimeout, PermitWithoutStream: true}),
		grpc.WithDefaultServiceConfig(`{"loadBalancingConfig":[{"round_robin":{}}]}`),
		// Fixed flow-control windows turn off bandwidth-estimation pings,
		// which cost frames and wake-ups on every burst of small messages.
		grpc.WithInitialWindowSize(1 << 20),
		grpc.WithInitialConnWindowSize(4 << 20),
		// Answers up to core's own message limit: a bulk create of 5,000
		// products renders several MiB, past gRPC's 4 MiB default.
		grpc.WithDefaultCallOptions(grpc.ForceCodecV2(grpccodec.New()),
			grpc.MaxCallRecvMsgSize(policy.MaxMessageBytes), grpc.MaxCallSendMsgSize(policy.MaxMessageBytes)),
	}, extra...)
	return grpc.NewClient(target, opts...)
}

// CoreTLS is the DialCore option of a TLS link (tlsfiles.Client), with the
// client certificate of mutual TLS when the configuration holds one.
func CoreTLS(cfg *tls.Config) grpc.DialOption {
	return grpc.WithTransportCredentials(credentials.NewTLS(cfg))
}
