package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"
)

// OTPSender delivers a one-time code to a seller's phone or e-mail address.
type OTPSender interface {
	SendOTP(ctx context.Context, destination, code string) error
}

// newOTP returns a random 6-digit code.
func newOTP() string {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		panic("auth: no randomness: " + err.Error())
	}
	return fmt.Sprintf("%06d", n.Int64())
}

// codeMAC is how one-time codes are stored: HMAC-SHA256 under a key derived
// from the platform's secret key, bound to the session (or, for a test
// shop's fixed sandbox code, to the login). A plain hash of six digits would
// fall to a million guesses offline; without the key, a database copy does
// not give the codes away.
func codeMAC(key []byte, binding, code string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(binding))
	m.Write([]byte{0})
	m.Write([]byte(code))
	return hex.EncodeToString(m.Sum(nil))
}

// macEqual compares two hex MACs in constant time.
func macEqual(a, b string) bool {
	return hmac.Equal([]byte(a), []byte(b))
}

// MaskDestination hides most of a phone number or e-mail address:
// "+63 917 123 4567" → "+63 9** *** 4567", "maria@example.ph" → "m****@example.ph".
func MaskDestination(d string) string {
	if local, domain, ok := strings.Cut(d, "@"); ok {
		first, _ := utf8.DecodeRuneInString(local)
		return string(first) + strings.Repeat("*", max(utf8.RuneCountInString(local)-1, 3)) + "@" + domain
	}
	digits := make([]rune, 0, len(d))
	for _, r := range d {
		if r >= '0' && r <= '9' {
			digits = append(digits, r)
		}
	}
	if len(digits) < 7 {
		return strings.Repeat("*", len(digits))
	}
	// Country code 63 and the first digit of the number stay, as do the
	// last four.
	if len(digits) == 12 && digits[0] == '6' && digits[1] == '3' {
		return "+63 " + string(digits[2]) + "** *** " + string(digits[8:])
	}
	return strings.Repeat("*", len(digits)-4) + string(digits[len(digits)-4:])
}
