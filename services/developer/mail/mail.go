// Package mail sends the developer console's messages (verification links,
// later invitations): through the operator's mail relay, and in dev also as
// .eml files a person can open.
package mail

import (
	"context"
	"errors"
)

// Message is one plain-text e-mail.
type Message struct {
	To      string
	Subject string
	Text    string
}

// Sender delivers a message.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Senders delivers through each sender in turn and reports every failure;
// one failing does not stop the others.
type Senders []Sender

// Send implements Sender.
func (s Senders) Send(ctx context.Context, m Message) error {
	var errs []error
	for _, x := range s {
		if err := x.Send(ctx, m); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
