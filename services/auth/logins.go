package auth

import (
	"context"
	"net/mail"
	"regexp"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/ids"
)

// NewSellerLogin is a consent-page login to create.
type NewSellerLogin struct {
	SellerID string
	Username string
	Password string
	// Destination is where one-time codes go: a +63 mobile number or an
	// e-mail address.
	Destination string
	// FixedOTP, for a test shop only, is the sandbox's fixed one-time code.
	FixedOTP string
}

var (
	phMobile = regexp.MustCompile(`^\+639[0-9]{9}$`)
	sixDigit = regexp.MustCompile(`^[0-9]{6}$`)
)

// CreateSellerLogin gives a seller a login for the consent pages. The
// password is stored as an argon2id hash and a fixed code as a MAC only.
func (s *Service) CreateSellerLogin(ctx context.Context, in NewSellerLogin, testShop bool) error {
	username := NormalizeUsername(in.Username)
	switch {
	case username == "" || len(username) > 254:
		return apierr.New(apierr.ValidationError, "a username of 1 to 254 characters is required")
	case len(in.Password) < 8 || len(in.Password) > 256:
		return apierr.New(apierr.ValidationError, "a password of 8 to 256 characters is required")
	case !phMobile.MatchString(in.Destination) && !validEmail(in.Destination):
		return apierr.New(apierr.ValidationError, "the code destination must be a +639… mobile number or an e-mail address")
	case in.FixedOTP != "" && (!testShop || !sixDigit.MatchString(in.FixedOTP)):
		return apierr.New(apierr.ValidationError, "only a test shop has a fixed one-time code, of 6 digits")
	}
	hash, err := hashPassword(in.Password, s.cost)
	if err != nil {
		return err
	}
	l := &SellerLogin{ID: ids.New("slg"), SellerID: in.SellerID, Username: username, PasswordHash: hash, Destination: in.Destination}
	if in.FixedOTP != "" {
		mac := FixedOTPHash(s.sealer, in.SellerID, in.FixedOTP)
		l.FixedOTPHash = &mac
	}
	return s.store.CreateLogin(ctx, l, s.clock.Now())
}

func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s
}
