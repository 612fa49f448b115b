package mail

import (
	"context"
	"fmt"
	"io"
	"mime"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/ids"
)

// Dir writes every message as an RFC 5322 .eml file in Path and prints it on
// Console, for dev: a partner trying the console locally follows the link
// from the terminal or opens the file in a mail program.
type Dir struct {
	Path    string
	Console io.Writer
	Clock   clock.Clock
	mu      sync.Mutex
}

// Send implements Sender.
func (d *Dir) Send(_ context.Context, m Message) error {
	now := d.Clock.Now()
	if err := os.MkdirAll(d.Path, 0o700); err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	name := filepath.Join(d.Path, now.Format("20060102T150405.000Z")+"-"+ids.Token(5)+".eml")
	var b strings.Builder
	fmt.Fprintf(&b, "Date: %s\r\n", now.Format(time.RFC1123Z))
	b.WriteString("From: Partner Console <console@localhost>\r\n")
	fmt.Fprintf(&b, "To: <%s>\r\n", headerSafe(m.To))
	fmt.Fprintf(&b, "Subject: %s\r\n", mime.QEncoding.Encode("utf-8", headerSafe(m.Subject)))
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	b.WriteString(strings.ReplaceAll(strings.ReplaceAll(m.Text, "\r\n", "\n"), "\n", "\r\n"))
	if err := os.WriteFile(name, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	if d.Console != nil {
		d.mu.Lock()
		defer d.mu.Unlock()
		fmt.Fprintf(d.Console, "mail to %s: %s (%s)\n%s\n", m.To, m.Subject, name, m.Text)
	}
	return nil
}

// headerSafe drops line breaks, which would start a header of their own.
func headerSafe(s string) string { return strings.NewReplacer("\r", "", "\n", "").Replace(s) }
