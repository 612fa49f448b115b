package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/services/developer"
)

// adminDeveloper runs the operator's developer console commands: a profile
// review and an account's audit trail.
func adminDeveloper(ctx context.Context, d *db.DB, cmd, account, decision string) (any, error) {
	if account == "" {
		return nil, errors.New(cmd + " needs --account")
	}
	svc, err := developer.NewService(developer.Config{Store: developer.NewEntStore(d), Clock: clock.System{},
		Business: clock.System{}, ConsoleURL: "http://localhost/console/"})
	if err != nil {
		return nil, err
	}
	switch cmd {
	case "review-profile":
		if decision != "approve" && decision != "reject" {
			return nil, errors.New("review-profile needs --decision approve or reject")
		}
		err := svc.ReviewProfile(ctx, account, decision == "approve")
		if errors.Is(err, developer.ErrNotFound) {
			return nil, fmt.Errorf("account %s has no profile pending review", account)
		}
		if err != nil {
			return nil, err
		}
		status := developer.ProfileRejected
		if decision == "approve" {
			status = developer.ProfileApproved
		}
		return map[string]any{"account_id": account, "profile_status": status}, nil
	default:
		entries, err := svc.AuditEntries(ctx, account)
		if err != nil {
			return nil, err
		}
		out := make([]map[string]any, len(entries))
		for i, e := range entries {
			out[i] = map[string]any{"at": e.CreatedAt, "user_id": e.UserID, "action": e.Action,
				"subject_id": e.SubjectID, "client_ip": e.ClientIP}
		}
		return out, nil
	}
}
