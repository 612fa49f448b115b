// Package tlsfiles builds the TLS configurations of the link between the
// tiers from PEM files, as Kubernetes Secrets or cert-manager mount them.
// Key pairs are re-read when their files change, so a renewed certificate
// is used by the next handshake without a restart; CA bundles are read at
// start.
package tlsfiles

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// Server returns core's listener configuration: certFile and keyFile are
// its key pair; with clientCAFile, every client must present a certificate
// signed by that CA (mutual TLS). certFile and keyFile empty (and no
// client CA) means plaintext: the result is nil.
func Server(certFile, keyFile, clientCAFile string) (*tls.Config, error) {
	if certFile == "" && keyFile == "" {
		if clientCAFile != "" {
			return nil, errors.New("tls: a client CA needs the server's certificate and key")
		}
		return nil, nil
	}
	pair, err := NewKeyPair(certFile, keyFile)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS13, GetCertificate: pair.GetCertificate}
	if clientCAFile != "" {
		pool, err := CertPool(clientCAFile)
		if err != nil {
			return nil, err
		}
		cfg.ClientCAs = pool
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
	}
	return cfg, nil
}

// Client returns the dialling side's configuration: caFile verifies the
// server; certFile and keyFile, when given, are the client's certificate
// for mutual TLS; serverName overrides the name checked in the server's
// certificate (the target's host otherwise). caFile empty means plaintext:
// the result is nil.
func Client(caFile, certFile, keyFile, serverName string) (*tls.Config, error) {
	if caFile == "" {
		if certFile != "" || keyFile != "" || serverName != "" {
			return nil, errors.New("tls: a client certificate or server name needs the CA that verifies the server")
		}
		return nil, nil
	}
	pool, err := CertPool(caFile)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS13, RootCAs: pool, ServerName: serverName}
	if certFile != "" || keyFile != "" {
		pair, err := NewKeyPair(certFile, keyFile)
		if err != nil {
			return nil, err
		}
		cfg.GetClientCertificate = pair.GetClientCertificate
	}
	return cfg, nil
}

// CertPool reads a PEM bundle of CA certificates.
func CertPool(file string) (*x509.CertPool, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("tls: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("tls: %s holds no PEM certificate", file)
	}
	return pool, nil
}

// KeyPair is a certificate and key read from files, read again when either
// file's size or modification time changes.
type KeyPair struct {
	certFile, keyFile string

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   [2]fileStamp
	checked time.Time
}

type fileStamp struct {
	size int64
	mod  time.Time
}

// recheck bounds how often the files are looked at: handshakes are rare on
// long-lived connections, but a burst of new connections need not stat the
// files each.
const recheck = time.Second

// NewKeyPair reads the pair once; a failure here is a configuration error.
func NewKeyPair(certFile, keyFile string) (*KeyPair, error) {
	if certFile == "" || keyFile == "" {
		return nil, errors.New("tls: both a certificate and a key file are required")
	}
	k := &KeyPair{certFile: certFile, keyFile: keyFile}
	if err := k.load(); err != nil {
		return nil, err
	}
	return k, nil
}

func (k *KeyPair) load() error {
	stamp, err := k.stamps()
	if err != nil {
		return err
	}
	cert, err := tls.LoadX509KeyPair(k.certFile, k.keyFile)
	if err != nil {
		return fmt.Errorf("tls: %w", err)
	}
	k.cert, k.stamp = &cert, stamp
	return nil
}

func (k *KeyPair) stamps() ([2]fileStamp, error) {
	var out [2]fileStamp
	for i, f := range []string{k.certFile, k.keyFile} {
		fi, err := os.Stat(f)
		if err != nil {
			return out, fmt.Errorf("tls: %w", err)
		}
		out[i] = fileStamp{size: fi.Size(), mod: fi.ModTime()}
	}
	return out, nil
}

// current returns the pair, re-reading it when its files changed. A pair
// that fails to load (a renewal caught half-written) leaves the previous
// one in use until the next check.
func (k *KeyPair) current() *tls.Certificate {
	k.mu.Lock()
	defer k.mu.Unlock()
	now := time.Now()
	if now.Sub(k.checked) < recheck {
		return k.cert
	}
	k.checked = now
	if stamp, err := k.stamps(); err == nil && stamp != k.stamp {
		_ = k.load() // on failure the previous pair stays, see above
	}
	return k.cert
}

// GetCertificate serves tls.Config.GetCertificate.
func (k *KeyPair) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return k.current(), nil
}

// GetClientCertificate serves tls.Config.GetClientCertificate.
func (k *KeyPair) GetClientCertificate(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	return k.current(), nil
}
