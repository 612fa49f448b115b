package platform_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/internal/tlsfiles"
	"github.com/mallplatform/partnerapi/services/auth"
)

const gatewayToken = "tls-test-gateway-token-0123456789"

// pki is a throwaway CA whose certificates are written as PEM files, as a
// Secret mounts them.
type pki struct {
	t    *testing.T
	dir  string
	key  *ecdsa.PrivateKey
	cert *x509.Certificate
	// CA is the CA certificate's file.
	CA string
}

func newPKI(t *testing.T, name string) *pki {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	p := &pki{t: t, dir: t.TempDir(), key: key, cert: cert}
	p.CA = p.write(name+"-ca.pem", "CERTIFICATE", der)
	return p
}

func (p *pki) write(name, typ string, der []byte) string {
	path := filepath.Join(p.dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		p.t.Fatal(err)
	}
	return path
}

// issue returns the cert and key files of a leaf named name, for servers
// (with 127.0.0.1 and name as SANs) or clients.
func (p *pki) issue(name string, server bool) (certFile, keyFile string) {
	p.t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		p.t.Fatal(err)
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: name},
		DNSNames:     []string{name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.cert, &key.PublicKey, p.key)
	if err != nil {
		p.t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		p.t.Fatal(err)
	}
	return p.write(name+".pem", "CERTIFICATE", der), p.write(name+"-key.pem", "PRIVATE KEY", keyDER)
}

// startCore serves the whole core tier over TLS on a loopback port.
func startCore(t *testing.T, serverTLS *tls.Config, gatewayCertName string) (string, *auth.Service) {
	t.Helper()
	c, err := platform.NewCore(platform.CoreConfig{DB: dbtest.SQLite(t), GatewayToken: gatewayToken, SecretKey: auth.NewKey(), TLS: serverTLS, GatewayCertName: gatewayCertName})
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = c.Server.Serve(lis) }()
	t.Cleanup(c.Server.GRPC.Stop)
	return lis.Addr().String(), c.Auth
}

func dial(t *testing.T, addr, token string, clientTLS *tls.Config) *grpc.ClientConn {
	t.Helper()
	var opts []grpc.DialOption
	if clientTLS != nil {
		opts = append(opts, platform.CoreTLS(clientTLS))
	}
	conn, err := platform.DialCore(addr, token, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// call makes one authenticated unary call (the category list).
func call(conn *grpc.ClientConn) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := catalogv1.NewCatalogServiceClient(conn).ListCategories(ctx, &catalogv1.ListCategoriesRequest{})
	return err
}

func health(conn *grpc.ClientConn) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
	return err
}

func clientTLS(t *testing.T, ca, cert, key, serverName string) *tls.Config {
	t.Helper()
	cfg, err := tlsfiles.Client(ca, cert, key, serverName)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestCoreServesTLS(t *testing.T) {
	p := newPKI(t, "tier")
	cert, key := p.issue("core.partner-api", true)
	serverTLS, err := tlsfiles.Server(cert, key, "")
	if err != nil {
		t.Fatal(err)
	}
	addr, _ := startCore(t, serverTLS, "")

	if err := call(dial(t, addr, gatewayToken, clientTLS(t, p.CA, "", "", ""))); err != nil {
		t.Fatalf("TLS client: %v", err)
	}
	// The name override checks the certificate against the Service's name
	// rather than the address dialled.
	if err := call(dial(t, addr, gatewayToken, clientTLS(t, p.CA, "", "", "core.partner-api"))); err != nil {
		t.Fatalf("TLS client with a server name: %v", err)
	}
	if err := health(dial(t, addr, gatewayToken, clientTLS(t, p.CA, "", "", "elsewhere.example"))); status.Code(err) != codes.Unavailable {
		t.Fatalf("a certificate for another name was accepted: %v", err)
	}
	if err := health(dial(t, addr, gatewayToken, nil)); status.Code(err) != codes.Unavailable {
		t.Fatalf("a plaintext client was served: %v", err)
	}
	other := newPKI(t, "other")
	if err := health(dial(t, addr, gatewayToken, clientTLS(t, other.CA, "", "", ""))); status.Code(err) != codes.Unavailable {
		t.Fatalf("a server certificate from another CA was trusted: %v", err)
	}
}

func TestCoreRequiresClientCertificatesUnderMutualTLS(t *testing.T) {
	p := newPKI(t, "tier")
	cert, key := p.issue("core.partner-api", true)
	serverTLS, err := tlsfiles.Server(cert, key, p.CA)
	if err != nil {
		t.Fatal(err)
	}
	addr, authSvc := startCore(t, serverTLS, "gateway.partner-api")

	gwCert, gwKey := p.issue("gateway.partner-api", false)
	if err := call(dial(t, addr, gatewayToken, clientTLS(t, p.CA, gwCert, gwKey, ""))); err != nil {
		t.Fatalf("the gateway with its certificate: %v", err)
	}
	// Without a client certificate the handshake fails: not even health.
	if err := health(dial(t, addr, gatewayToken, clientTLS(t, p.CA, "", "", ""))); status.Code(err) != codes.Unavailable {
		t.Fatalf("a client without a certificate was served: %v", err)
	}
	other := newPKI(t, "other")
	strayCert, strayKey := other.issue("gateway.partner-api", false)
	if err := health(dial(t, addr, gatewayToken, clientTLS(t, p.CA, strayCert, strayKey, ""))); status.Code(err) != codes.Unavailable {
		t.Fatalf("a client certificate from another CA was accepted: %v", err)
	}

	// An internal team's certificate from the same CA opens the connection,
	// but the gateway's token does not count over it.
	teamCert, teamKey := p.issue("checkout.partner-api", false)
	team := clientTLS(t, p.CA, teamCert, teamKey, "")
	err = call(dial(t, addr, gatewayToken, team))
	if st := status.Convert(err); st.Code() != codes.Unauthenticated {
		t.Fatalf("the gateway token over another client's certificate: %v", err)
	} else if reason, _ := apierr.FromStatus(st); reason != apierr.Unauthorized {
		t.Fatalf("reason %s", apierr.Name(reason))
	}
	issued, err := authSvc.CreateInternalCaller(context.Background(), auth.NewInternalCaller{Name: "checkout"})
	if err != nil {
		t.Fatal(err)
	}
	if err := call(dial(t, addr, issued.Token, team)); err != nil {
		t.Fatalf("an internal caller with its own token and certificate: %v", err)
	}
}

func TestTLSConfigurationMistakes(t *testing.T) {
	p := newPKI(t, "tier")
	if _, err := tlsfiles.Server("", "", p.CA); err == nil {
		t.Error("a client CA without a server certificate was accepted")
	}
	if _, err := tlsfiles.Client("", "cert.pem", "key.pem", ""); err == nil {
		t.Error("a client certificate without a CA was accepted")
	}
	if cfg, err := tlsfiles.Server("", "", ""); cfg != nil || err != nil {
		t.Errorf("plaintext: %v %v", cfg, err)
	}
	_, err := platform.NewCore(platform.CoreConfig{DB: dbtest.SQLite(t), GatewayToken: gatewayToken, SecretKey: auth.NewKey(), GatewayCertName: "gateway"})
	if err == nil {
		t.Error("a gateway certificate name without mutual TLS was accepted")
	}
}
