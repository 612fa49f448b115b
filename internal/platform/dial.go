package platform

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"

	"github.com/mallplatform/partnerapi/internal/grpccodec"
)

// bearer adds the internal credential to every call to core. gRPC only reads
// the returned map, so one map serves every call.
type bearer struct{ md map[string]string }

func newBearer(token string) bearer {
	return bearer{md: map[string]string{"authorization": "Bearer " + token}}
}

func (b bearer) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return b.md, nil
}

// RequireTransportSecurity is false: core's port is internal and reached over
// the cluster network; mTLS, where wanted, is added by the mesh.
func (bearer) RequireTransportSecurity() bool { return false }

// DialCore connects to the core tier with the internal credential. The
// connection is lazy: it is established on first use and re-established on
// failure, so a gateway may start before core.
func DialCore(target, internalToken string, extra ...grpc.DialOption) (*grpc.ClientConn, error) {
	opts := append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(newBearer(internalToken)),
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: 30 * time.Second, Timeout: 10 * time.Second, PermitWithoutStream: true}),
		grpc.WithDefaultServiceConfig(`{"loadBalancingConfig":[{"round_robin":{}}]}`),
		// Fixed flow-control windows turn off bandwidth-estimation pings,
		// which cost frames and wake-ups on every burst of small messages.
		grpc.WithInitialWindowSize(1 << 20),
		grpc.WithInitialConnWindowSize(4 << 20),
		grpc.WithDefaultCallOptions(grpc.ForceCodecV2(grpccodec.New())),
	}, extra...)
	return grpc.NewClient(target, opts...)
}
