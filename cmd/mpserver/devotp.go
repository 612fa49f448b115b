package main

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/mallplatform/partnerapi/services/auth"
)

// consoleOTPSender is the dev role's one-time code sender: it prints the
// code on the dev console, the developer's stand-in for a seller's phone.
// Only the dev role has it; core, gateway and worker never write a code
// anywhere but to a real sender.
type consoleOTPSender struct {
	mu sync.Mutex
	w  io.Writer
}

// SendOTP implements auth.OTPSender.
func (c *consoleOTPSender) SendOTP(_ context.Context, destination, code string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := fmt.Fprintf(c.w, "dev: one-time code for %s: %s\n", auth.MaskDestination(destination), code)
	return err
}
