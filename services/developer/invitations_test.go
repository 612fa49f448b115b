package developer_test

import (
	"slices"
	"testing"
	"time"

	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/services/developer"
)

// pending lists the invitations p's account has pending, by address,
// newest first.
func pending(t *testing.T, c developerv1.DeveloperServiceClient, p person) ([]string, map[string]*developerv1.Invitation) {
	t.Helper()
	resp, err := c.ListInvitations(p.reads(), &developerv1.ListInvitationsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var emails []string
	byEmail := map[string]*developerv1.Invitation{}
	for _, inv := range resp.GetData() {
		emails = append(emails, inv.GetEmail())
		byEmail[inv.GetEmail()] = inv
	}
	return emails, byEmail
}

// An account's pending invitations are listed to its members, newest
// first, until accepted, revoked, replaced or expired; revoking one takes
// what sending it with its role takes, and its link no longer joins
// (docs/decisions.md, "Developer console: test shops, members and roles").
func TestPendingInvitations(t *testing.T) {
	for _, pg := range []bool{true, false} {
		name := "sqlite"
		if pg {
			name = "postgres"
		}
		t.Run(name, func(t *testing.T) {
			o := &outbox{}
			env := testenv.Start(t, testenv.Options{Postgres: pg, ConsoleMail: o, BusinessClock: true})
			c := developerv1.NewDeveloperServiceClient(env.Conn)
			ana := signedUp(t, c, o, "ana@example.com", "Ana Cruz")
			bob := signedUp(t, c, o, "bob@example.com", "Bob Lim")
			carl := signedUp(t, c, o, "carl@example.com", "Carl Tan")

			if emails, _ := pending(t, c, ana); len(emails) != 0 {
				t.Fatalf("pending before any invitation: %v", emails)
			}
			sent := env.Business.Now()
			bobsLink := invite(t, c, o, ana, "bob@example.com", developer.RoleAdmin)
			env.Business.Advance(time.Minute)
			carlsLink := invite(t, c, o, ana, "carl@example.com", developer.RoleViewer)
			env.Business.Advance(time.Minute)
			invite(t, c, o, ana, "dina@example.com", developer.RoleOwner)
			emails, byEmail := pending(t, c, ana)
			if !slices.Equal(emails, []string{"dina@example.com", "carl@example.com", "bob@example.com"}) {
				t.Fatalf("pending: %v, want the three newest first", emails)
			}
			bobs := byEmail["bob@example.com"]
			if bobs.GetRole() != developer.RoleAdmin || bobs.GetId() == "" || !bobs.GetInvitedAt().AsTime().Equal(sent) ||
				!bobs.GetExpiresAt().AsTime().Equal(sent.Add(developer.InvitationTTL)) {
				t.Fatalf("bob's invitation: %v (sent %s)", bobs, sent)
			}

			// Accepted: no longer pending, and no longer revocable.
			accept(t, c, &bob, bobsLink, ana.accountID, developer.RoleAdmin)
			emails, _ = pending(t, c, bob)
			if !slices.Equal(emails, []string{"dina@example.com", "carl@example.com"}) {
				t.Fatalf("pending after bob's acceptance, as bob sees them: %v", emails)
			}
			_, err := c.RevokeInvitation(ana.changes(), &developerv1.RevokeInvitationRequest{Id: bobs.GetId()})
			wantGRPC(t, "revoking an accepted invitation", err, apierr.Conflict)

			// An ADMIN does not revoke an OWNER's invitation; another
			// account does not see one; a change needs the CSRF token.
			_, err = c.RevokeInvitation(bob.changes(), &developerv1.RevokeInvitationRequest{Id: byEmail["dina@example.com"].GetId()})
			wantGRPC(t, "an admin revoking an owner's invitation", err, errorsv1.ErrorCode_ERROR_CODE_MEMBER_PERMISSION_DENIED)
			carlsID := byEmail["carl@example.com"].GetId()
			_, err = c.RevokeInvitation(carl.changes(), &developerv1.RevokeInvitationRequest{Id: carlsID})
			wantGRPC(t, "another account's invitation", err, apierr.NotFound)
			_, err = c.RevokeInvitation(bob.reads(), &developerv1.RevokeInvitationRequest{Id: carlsID})
			wantGRPC(t, "a revocation without the CSRF token", err, apierr.Forbidden)

			// The ADMIN revokes the VIEWER's: gone from the list, its link
			// refused, a second revocation a conflict, the change audited.
			if _, err := c.RevokeInvitation(bob.changes(), &developerv1.RevokeInvitationRequest{Id: carlsID}); err != nil {
				t.Fatal(err)
			}
			if emails, _ = pending(t, c, ana); !slices.Equal(emails, []string{"dina@example.com"}) {
				t.Fatalf("pending after the revocation: %v", emails)
			}
			_, err = c.AcceptInvitation(carl.changes(), &developerv1.AcceptInvitationRequest{Token: carlsLink})
			wantGRPC(t, "a revoked invitation's link", err, errorsv1.ErrorCode_ERROR_CODE_VERIFICATION_LINK_USED)
			_, err = c.RevokeInvitation(bob.changes(), &developerv1.RevokeInvitationRequest{Id: carlsID})
			wantGRPC(t, "revoking twice", err, apierr.Conflict)
			audited := false
			for _, row := range dbtest.Query(t, env.DB.SQL, "SELECT account_id, action, subject_id FROM developer_audit_entries") {
				if dbtest.Text(row["action"]) == "member.invitation_revoked" {
					audited = dbtest.Text(row["subject_id"]) == carlsID && dbtest.Text(row["account_id"]) == ana.accountID
				}
			}
			if !audited {
				t.Error("the revocation is not in the account's audit")
			}

			// A newer invitation to an address replaces the pending one;
			// an expired one is no longer pending nor revocable.
			invite(t, c, o, ana, "dina@example.com", developer.RoleDeveloper)
			emails, byEmail = pending(t, c, ana)
			if len(emails) != 1 || byEmail["dina@example.com"].GetRole() != developer.RoleDeveloper {
				t.Fatalf("pending after a second invitation to dina: %v", byEmail)
			}
			env.Business.Advance(developer.InvitationTTL)
			if emails, _ = pending(t, c, ana); len(emails) != 0 {
				t.Fatalf("pending after the expiry: %v", emails)
			}
			_, err = c.RevokeInvitation(ana.changes(), &developerv1.RevokeInvitationRequest{Id: byEmail["dina@example.com"].GetId()})
			wantGRPC(t, "revoking an expired invitation", err, apierr.Conflict)
		})
	}
}
