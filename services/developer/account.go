package developer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mallplatform/partnerapi/internal/ids"
)

// AccountView is the account as its members see it.
type AccountView struct {
	Account       Account
	Role          string
	EmailVerified bool
}

// Account reads the actor's account.
func (s *Service) Account(ctx context.Context, a Actor) (AccountView, error) {
	acct, err := s.store.Account(ctx, a.Member.AccountID)
	if err != nil {
		return AccountView{}, err
	}
	return AccountView{Account: acct, Role: a.Member.Role, EmailVerified: a.User.Verified()}, nil
}

// requireVerified is the first check of every method that creates or
// changes something: an unverified person reads only.
func requireVerified(a Actor) error {
	if !a.User.Verified() {
		return errNotVerified
	}
	return nil
}

// DeleteAccount deletes the actor's account: its owner only, and only once
// it has no apps.
func (s *Service) DeleteAccount(ctx context.Context, c Caller, a Actor) error {
	if err := authorize(a, actDeleteAccount); err != nil {
		return err
	}
	now := s.business.Business(ctx)
	return s.store.InTx(ctx, func(ctx context.Context) error {
		sandbox, live, err := s.store.CountApps(ctx, a.Member.AccountID)
		if err != nil {
			return err
		}
		if sandbox+live > 0 {
			return errHasApps
		}
		if err := s.store.DeleteAccount(ctx, a.Member.AccountID); err != nil {
			return err
		}
		return s.audit(ctx, c, a.Member.AccountID, a.User.ID, "account.deleted", "", now)
	})
}

// Address is a profile's postal address.
type Address struct {
	Line1      string `json:"line1"`
	City       string `json:"city"`
	Province   string `json:"province"`
	PostalCode string `json:"postalCode"`
	Country    string `json:"country"`
}

// Profile is the identity an account submits for review: an individual's
// fields or a business's, and the address.
type Profile struct {
	FullName           string  `json:"fullName,omitempty"`
	DateOfBirth        string  `json:"dateOfBirth,omitempty"`
	IDType             string  `json:"idType,omitempty"`
	IDNumber           string  `json:"idNumber,omitempty"`
	RegisteredName     string  `json:"registeredName,omitempty"`
	RegistrationNumber string  `json:"registrationNumber,omitempty"`
	Address            Address `json:"address"`
}

func (p Profile) individualFields() bool {
	return p.FullName != "" || p.DateOfBirth != "" || p.IDType != "" || p.IDNumber != ""
}

func (p Profile) businessFields() bool { return p.RegisteredName != "" || p.RegistrationNumber != "" }

// check answers PROFILE_TYPE_MISMATCH for the other type's fields, then
// VALIDATION_ERROR for a missing one.
func (p Profile) check(developerType string) error {
	var missing []string
	need := func(name, v string) {
		if strings.TrimSpace(v) == "" {
			missing = append(missing, name)
		}
	}
	switch developerType {
	case TypeIndividual:
		if p.businessFields() {
			return errProfileType
		}
		need("fullName", p.FullName)
		need("dateOfBirth", p.DateOfBirth)
		need("idType", p.IDType)
		need("idNumber", p.IDNumber)
		if p.DateOfBirth != "" {
			if _, err := time.Parse(time.DateOnly, p.DateOfBirth); err != nil {
				return validation("dateOfBirth must be a date, YYYY-MM-DD")
			}
		}
	case TypeBusiness:
		if p.individualFields() {
			return errProfileType
		}
		need("registeredName", p.RegisteredName)
		need("registrationNumber", p.RegistrationNumber)
	default:
		// An account an operator created has no type to match.
		return errProfileType
	}
	need("address.line1", p.Address.Line1)
	need("address.city", p.Address.City)
	need("address.province", p.Address.Province)
	need("address.postalCode", p.Address.PostalCode)
	need("address.country", p.Address.Country)
	if len(missing) > 0 {
		return validation("missing: " + strings.Join(missing, ", "))
	}
	return nil
}

// SubmitProfile submits the account's profile for review.
func (s *Service) SubmitProfile(ctx context.Context, c Caller, a Actor, p Profile) error {
	if err := requireVerified(a); err != nil {
		return err
	}
	if err := authorize(a, actProfile); err != nil {
		return err
	}
	acct, err := s.store.Account(ctx, a.Member.AccountID)
	if err != nil {
		return err
	}
	if err := p.check(acct.DeveloperType); err != nil {
		return err
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return err
	}
	now := s.business.Business(ctx)
	return s.store.InTx(ctx, func(ctx context.Context) error {
		if err := s.store.SubmitProfile(ctx, acct.ID, raw, now); errors.Is(err, ErrProfileLocked) {
			return errProfileLocked
		} else if err != nil {
			return err
		}
		return s.audit(ctx, c, acct.ID, a.User.ID, "profile.submitted", "", now)
	})
}

// ReviewProfile records an operator's decision on the account's pending
// profile (ErrNotFound when none is pending).
func (s *Service) ReviewProfile(ctx context.Context, accountID string, approve bool) error {
	status, action := ProfileRejected, "profile.rejected"
	if approve {
		status, action = ProfileApproved, "profile.approved"
	}
	now := s.business.Business(ctx)
	return s.store.InTx(ctx, func(ctx context.Context) error {
		if err := s.store.ReviewProfile(ctx, accountID, status, now); err != nil {
			return err
		}
		return s.audit(ctx, Caller{}, accountID, "", action, "", now)
	})
}

// AuditEntries lists an account's audit trail (for operators).
func (s *Service) AuditEntries(ctx context.Context, accountID string) ([]AuditEntry, error) {
	return s.store.AuditEntries(ctx, accountID)
}

func (s *Service) audit(ctx context.Context, c Caller, accountID, userID, action, subjectID string, at time.Time) error {
	if err := s.store.Audit(ctx, AuditEntry{ID: ids.NewAt("daud", at), AccountID: accountID, UserID: userID,
		Action: action, SubjectID: subjectID, ClientIP: c.ClientIP, CreatedAt: at}); err != nil {
		return fmt.Errorf("developer: audit %s: %w", action, err)
	}
	return nil
}
