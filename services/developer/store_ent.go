package developer

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/app"
	"github.com/mallplatform/partnerapi/ent/consolesession"
	"github.com/mallplatform/partnerapi/ent/developeraccount"
	"github.com/mallplatform/partnerapi/ent/developerauditentry"
	"github.com/mallplatform/partnerapi/ent/developeremailtoken"
	"github.com/mallplatform/partnerapi/ent/developerinvitation"
	"github.com/mallplatform/partnerapi/ent/developermember"
	"github.com/mallplatform/partnerapi/ent/developertestshop"
	"github.com/mallplatform/partnerapi/ent/developeruser"
	"github.com/mallplatform/partnerapi/internal/db"
)

// EntStore is the Store on ent, for PostgreSQL and SQLite alike.
type EntStore struct {
	client *ent.Client
	// dialect builds the statements written with ent's SQL builder.
	dialect string
}

var _ Store = (*EntStore)(nil)

// NewEntStore returns a Store on d.
func NewEntStore(d *db.DB) *EntStore {
	s := &EntStore{client: d.Ent, dialect: dialect.SQLite}
	if d.Driver() == db.DriverPostgres {
		s.dialect = dialect.Postgres
	}
	return s
}

func (s *EntStore) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

// InTx implements Store.
func (s *EntStore) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.InTx(ctx, s.client, fn)
}

// CreateSignup implements Store. Either unique index on the address (the
// person's, the account's) makes it ErrEmailTaken; the address is checked
// first so the usual case needs no failed insert.
func (s *EntStore) CreateSignup(ctx context.Context, n NewSignup) error {
	return s.InTx(ctx, func(ctx context.Context) error {
		c := s.db(ctx)
		taken, err := c.DeveloperUser.Query().Where(developeruser.Email(n.User.Email)).Exist(ctx)
		if err == nil && !taken {
			taken, err = c.DeveloperAccount.Query().Where(developeraccount.Email(n.Account.Email)).Exist(ctx)
		}
		if err != nil {
			return fmt.Errorf("developer: sign-up: %w", err)
		}
		if taken {
			return ErrEmailTaken
		}
		err = c.DeveloperAccount.Create().SetID(n.Account.ID).SetName(n.Account.Name).SetEmail(n.Account.Email).
			SetDeveloperType(developeraccount.DeveloperType(n.Account.DeveloperType)).SetCreatedAt(n.Account.CreatedAt).Exec(ctx)
		if err == nil {
			err = c.DeveloperUser.Create().SetID(n.User.ID).SetEmail(n.User.Email).SetName(n.User.Name).
				SetPasswordHash(n.User.PasswordHash).SetCreatedAt(n.User.CreatedAt).Exec(ctx)
		}
		if ent.IsConstraintError(err) {
			return ErrEmailTaken
		}
		if err == nil {
			err = c.DeveloperMember.Create().SetID(n.Member.ID).SetAccountID(n.Member.AccountID).
				SetUserID(n.Member.UserID).SetRole(developermember.Role(n.Member.Role)).SetCreatedAt(n.Account.CreatedAt).Exec(ctx)
		}
		if err != nil {
			return fmt.Errorf("developer: sign-up: %w", err)
		}
		return nil
	})
}

// UserByEmail implements Store.
func (s *EntStore) UserByEmail(ctx context.Context, email string) (User, error) {
	return s.user(ctx, s.db(ctx).DeveloperUser.Query().Where(developeruser.Email(email)))
}

// User implements Store.
func (s *EntStore) User(ctx context.Context, id string) (User, error) {
	return s.user(ctx, s.db(ctx).DeveloperUser.Query().Where(developeruser.ID(id)))
}

func (s *EntStore) user(ctx context.Context, q *ent.DeveloperUserQuery) (User, error) {
	r, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return User{}, ErrNotFound
	}
	if err != nil {
		return User{}, fmt.Errorf("developer: user: %w", err)
	}
	return User{ID: r.ID, Email: r.Email, Name: r.Name, PasswordHash: r.PasswordHash,
		EmailVerifiedAt: r.EmailVerifiedAt, CreatedAt: r.CreatedAt}, nil
}

// MarkVerified implements Store; an address verified already keeps its
// first time.
func (s *EntStore) MarkVerified(ctx context.Context, userID string, at time.Time) error {
	_, err := s.db(ctx).DeveloperUser.Update().
		Where(developeruser.ID(userID), developeruser.EmailVerifiedAtIsNil()).SetEmailVerifiedAt(at).Save(ctx)
	if err != nil {
		return fmt.Errorf("developer: mark verified: %w", err)
	}
	return nil
}

// AddLink implements Store.
func (s *EntStore) AddLink(ctx context.Context, l Link) error {
	return s.InTx(ctx, func(ctx context.Context) error {
		c := s.db(ctx)
		if _, err := c.DeveloperEmailToken.Update().
			Where(developeremailtoken.UserID(l.UserID), developeremailtoken.KindEQ(developeremailtoken.Kind(l.Kind)),
				developeremailtoken.UsedAtIsNil()).
			SetUsedAt(l.CreatedAt).Save(ctx); err != nil {
			return fmt.Errorf("developer: end earlier links: %w", err)
		}
		if err := c.DeveloperEmailToken.Create().SetID(l.ID).SetKind(developeremailtoken.Kind(l.Kind)).
			SetTokenHash(l.TokenHash).SetUserID(l.UserID).SetExpiresAt(l.ExpiresAt).SetCreatedAt(l.CreatedAt).
			Exec(ctx); err != nil {
			return fmt.Errorf("developer: add link: %w", err)
		}
		return nil
	})
}

// LinkByHash implements Store.
func (s *EntStore) LinkByHash(ctx context.Context, tokenHash string) (Link, error) {
	r, err := s.db(ctx).DeveloperEmailToken.Query().Where(developeremailtoken.TokenHash(tokenHash)).Only(ctx)
	if ent.IsNotFound(err) {
		return Link{}, ErrNotFound
	}
	if err != nil {
		return Link{}, fmt.Errorf("developer: link: %w", err)
	}
	return Link{ID: r.ID, Kind: string(r.Kind), TokenHash: r.TokenHash, UserID: r.UserID, ExpiresAt: r.ExpiresAt,
		UsedAt: r.UsedAt, CreatedAt: r.CreatedAt}, nil
}

// UseLink implements Store: one conditional UPDATE, so of two requests with
// one link exactly one uses it.
func (s *EntStore) UseLink(ctx context.Context, id string, at time.Time) error {
	n, err := s.db(ctx).DeveloperEmailToken.Update().
		Where(developeremailtoken.ID(id), developeremailtoken.UsedAtIsNil()).SetUsedAt(at).Save(ctx)
	if err != nil {
		return fmt.Errorf("developer: use link: %w", err)
	}
	if n == 0 {
		return ErrLinkUsed
	}
	return nil
}

// Account implements Store.
func (s *EntStore) Account(ctx context.Context, id string) (Account, error) {
	r, err := s.db(ctx).DeveloperAccount.Query().Where(developeraccount.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return Account{}, ErrNotFound
	}
	if err != nil {
		return Account{}, fmt.Errorf("developer: account: %w", err)
	}
	a := Account{ID: r.ID, Name: r.Name, Email: r.Email, Profile: r.Profile, ProfileSubmittedAt: r.ProfileSubmittedAt,
		CreatedAt: r.CreatedAt}
	if r.DeveloperType != nil {
		a.DeveloperType = string(*r.DeveloperType)
	}
	if r.ProfileStatus != nil {
		a.ProfileStatus = string(*r.ProfileStatus)
	}
	return a, nil
}

// Memberships implements Store.
func (s *EntStore) Memberships(ctx context.Context, userID string) ([]Member, error) {
	rows, err := s.db(ctx).DeveloperMember.Query().Where(developermember.UserID(userID)).
		Order(developermember.ByCreatedAt(), developermember.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("developer: memberships: %w", err)
	}
	out := make([]Member, len(rows))
	for i, r := range rows {
		out[i] = Member{ID: r.ID, AccountID: r.AccountID, UserID: r.UserID, Role: string(r.Role)}
	}
	return out, nil
}

// Member implements Store.
func (s *EntStore) Member(ctx context.Context, accountID, userID string) (Member, error) {
	r, err := s.db(ctx).DeveloperMember.Query().
		Where(developermember.AccountID(accountID), developermember.UserID(userID)).Only(ctx)
	if ent.IsNotFound(err) {
		return Member{}, ErrNotFound
	}
	if err != nil {
		return Member{}, fmt.Errorf("developer: member: %w", err)
	}
	return Member{ID: r.ID, AccountID: r.AccountID, UserID: r.UserID, Role: string(r.Role)}, nil
}

// CountApps implements Store.
func (s *EntStore) CountApps(ctx context.Context, accountID string) (sandbox, live int, err error) {
	var rows []struct {
		Environment string `json:"environment"`
		Count       int    `json:"count"`
	}
	err = s.db(ctx).App.Query().Where(app.AccountID(accountID)).
		GroupBy(app.FieldEnvironment).Aggregate(ent.Count()).Scan(ctx, &rows)
	if err != nil {
		return 0, 0, fmt.Errorf("developer: count apps: %w", err)
	}
	for _, r := range rows {
		if r.Environment == string(app.EnvironmentSandbox) {
			sandbox = r.Count
		} else {
			live += r.Count
		}
	}
	return sandbox, live, nil
}

// DeleteAccount implements Store.
func (s *EntStore) DeleteAccount(ctx context.Context, accountID string) error {
	return s.InTx(ctx, func(ctx context.Context) error {
		c := s.db(ctx)
		members, err := c.DeveloperMember.Query().Where(developermember.AccountID(accountID)).All(ctx)
		if err != nil {
			return fmt.Errorf("developer: delete account: %w", err)
		}
		if _, err := c.DeveloperMember.Delete().Where(developermember.AccountID(accountID)).Exec(ctx); err != nil {
			return fmt.Errorf("developer: delete members: %w", err)
		}
		if _, err := c.ConsoleSession.Delete().Where(consolesession.AccountID(accountID)).Exec(ctx); err != nil {
			return fmt.Errorf("developer: delete sessions: %w", err)
		}
		// Its invitations end with it; its test shops stay sandbox sellers
		// of no account.
		if _, err := c.DeveloperInvitation.Delete().Where(developerinvitation.AccountID(accountID)).Exec(ctx); err != nil {
			return fmt.Errorf("developer: delete invitations: %w", err)
		}
		if _, err := c.DeveloperTestShop.Delete().Where(developertestshop.AccountID(accountID)).Exec(ctx); err != nil {
			return fmt.Errorf("developer: delete test shop records: %w", err)
		}
		for _, m := range members {
			left, err := c.DeveloperMember.Query().Where(developermember.UserID(m.UserID)).Exist(ctx)
			if err != nil {
				return fmt.Errorf("developer: delete account: %w", err)
			}
			if left {
				continue
			}
			if _, err := c.DeveloperEmailToken.Delete().Where(developeremailtoken.UserID(m.UserID)).Exec(ctx); err != nil {
				return fmt.Errorf("developer: delete links: %w", err)
			}
			if _, err := c.ConsoleSession.Delete().Where(consolesession.UserID(m.UserID)).Exec(ctx); err != nil {
				return fmt.Errorf("developer: delete sessions: %w", err)
			}
			if err := c.DeveloperUser.DeleteOneID(m.UserID).Exec(ctx); err != nil {
				return fmt.Errorf("developer: delete user: %w", err)
			}
		}
		if err := c.DeveloperAccount.DeleteOneID(accountID).Exec(ctx); err != nil {
			if ent.IsNotFound(err) {
				return ErrNotFound
			}
			return fmt.Errorf("developer: delete account: %w", err)
		}
		return nil
	})
}

// SubmitProfile implements Store: one conditional UPDATE, so two
// submissions racing store one.
func (s *EntStore) SubmitProfile(ctx context.Context, accountID string, profile json.RawMessage, at time.Time) error {
	n, err := s.db(ctx).DeveloperAccount.Update().
		Where(developeraccount.ID(accountID), developeraccount.Or(developeraccount.ProfileStatusIsNil(),
			developeraccount.ProfileStatusEQ(developeraccount.ProfileStatusRejected))).
		SetProfile(profile).SetProfileStatus(developeraccount.ProfileStatusPending).SetProfileSubmittedAt(at).
		ClearProfileReviewedAt().Save(ctx)
	if err != nil {
		return fmt.Errorf("developer: submit profile: %w", err)
	}
	if n == 0 {
		return ErrProfileLocked
	}
	return nil
}

// ReviewProfile implements Store.
func (s *EntStore) ReviewProfile(ctx context.Context, accountID, status string, at time.Time) error {
	n, err := s.db(ctx).DeveloperAccount.Update().
		Where(developeraccount.ID(accountID), developeraccount.ProfileStatusEQ(developeraccount.ProfileStatusPending)).
		SetProfileStatus(developeraccount.ProfileStatus(status)).SetProfileReviewedAt(at).Save(ctx)
	if err != nil {
		return fmt.Errorf("developer: review profile: %w", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// CreateSession implements Store.
func (s *EntStore) CreateSession(ctx context.Context, ss Session) error {
	err := s.db(ctx).ConsoleSession.Create().SetID(ss.ID).SetTokenHash(ss.TokenHash).SetUserID(ss.UserID).
		SetAccountID(ss.AccountID).SetClientIP(ss.ClientIP).SetLastSeenAt(ss.LastSeenAt).SetCreatedAt(ss.CreatedAt).Exec(ctx)
	if err != nil {
		return fmt.Errorf("developer: create session: %w", err)
	}
	return nil
}

// SessionActor implements Store: every console call reads it, so the
// session, its person and the membership are one statement (the session
// joined to its person, and left-joined to the membership, which may be
// gone) rather than three reads in turn.
func (s *EntStore) SessionActor(ctx context.Context, tokenHash string) (SessionActor, error) {
	b := entsql.Dialect(s.dialect)
	ss, u, m := b.Table(consolesession.Table).As("s"), b.Table(developeruser.Table).As("u"), b.Table(developermember.Table).As("m")
	q, args := b.Select(ss.C(consolesession.FieldID), ss.C(consolesession.FieldUserID), ss.C(consolesession.FieldAccountID),
		ss.C(consolesession.FieldClientIP), ss.C(consolesession.FieldLastSeenAt), ss.C(consolesession.FieldCreatedAt),
		u.C(developeruser.FieldEmail), u.C(developeruser.FieldName), u.C(developeruser.FieldPasswordHash),
		u.C(developeruser.FieldEmailVerifiedAt), u.C(developeruser.FieldCreatedAt),
		m.C(developermember.FieldID), m.C(developermember.FieldRole)).
		From(ss).
		Join(u).On(ss.C(consolesession.FieldUserID), u.C(developeruser.FieldID)).
		LeftJoin(m).OnP(entsql.And(
		entsql.ColumnsEQ(m.C(developermember.FieldAccountID), ss.C(consolesession.FieldAccountID)),
		entsql.ColumnsEQ(m.C(developermember.FieldUserID), ss.C(consolesession.FieldUserID)))).
		Where(entsql.EQ(ss.C(consolesession.FieldTokenHash), tokenHash)).
		Query()
	rows, err := s.db(ctx).QueryContext(ctx, q, args...)
	if err != nil {
		return SessionActor{}, fmt.Errorf("developer: session: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return SessionActor{}, fmt.Errorf("developer: session: %w", err)
		}
		return SessionActor{}, ErrNotFound
	}
	out := SessionActor{Session: Session{TokenHash: tokenHash}}
	ss2, u2 := &out.Session, &out.User
	var verified stdsql.NullTime
	var memberID, role stdsql.NullString
	if err := rows.Scan(&ss2.ID, &ss2.UserID, &ss2.AccountID, &ss2.ClientIP, &ss2.LastSeenAt, &ss2.CreatedAt,
		&u2.Email, &u2.Name, &u2.PasswordHash, &verified, &u2.CreatedAt, &memberID, &role); err != nil {
		return SessionActor{}, fmt.Errorf("developer: session: %w", err)
	}
	u2.ID = ss2.UserID
	if verified.Valid {
		u2.EmailVerifiedAt = &verified.Time
	}
	if memberID.Valid {
		out.Member = &Member{ID: memberID.String, AccountID: ss2.AccountID, UserID: ss2.UserID, Role: role.String}
	}
	return out, rows.Err()
}

// TouchSession implements Store; a time never moves back.
func (s *EntStore) TouchSession(ctx context.Context, id string, at time.Time) error {
	_, err := s.db(ctx).ConsoleSession.Update().
		Where(consolesession.ID(id), consolesession.LastSeenAtLT(at)).SetLastSeenAt(at).Save(ctx)
	if err != nil {
		return fmt.Errorf("developer: touch session: %w", err)
	}
	return nil
}

// DeleteSession implements Store.
func (s *EntStore) DeleteSession(ctx context.Context, id string) error {
	if _, err := s.db(ctx).ConsoleSession.Delete().Where(consolesession.ID(id)).Exec(ctx); err != nil {
		return fmt.Errorf("developer: delete session: %w", err)
	}
	return nil
}

// Audit implements Store.
func (s *EntStore) Audit(ctx context.Context, e AuditEntry) error {
	err := s.db(ctx).DeveloperAuditEntry.Create().SetID(e.ID).SetAccountID(e.AccountID).SetUserID(e.UserID).
		SetAction(e.Action).SetSubjectID(e.SubjectID).SetClientIP(e.ClientIP).SetCreatedAt(e.CreatedAt).Exec(ctx)
	if err != nil {
		return fmt.Errorf("developer: audit: %w", err)
	}
	return nil
}

// AuditEntries implements Store.
func (s *EntStore) AuditEntries(ctx context.Context, accountID string) ([]AuditEntry, error) {
	rows, err := s.db(ctx).DeveloperAuditEntry.Query().Where(developerauditentry.AccountID(accountID)).
		Order(developerauditentry.ByCreatedAt(), developerauditentry.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("developer: audit entries: %w", err)
	}
	out := make([]AuditEntry, len(rows))
	for i, r := range rows {
		out[i] = AuditEntry{ID: r.ID, AccountID: r.AccountID, UserID: r.UserID, Action: r.Action, SubjectID: r.SubjectID,
			ClientIP: r.ClientIP, CreatedAt: r.CreatedAt}
	}
	return out, nil
}

// Purge removes sessions idle since before, and links and invitations that
// expired before it (retention.Purger).
func (s *EntStore) Purge(ctx context.Context, before time.Time) (int, error) {
	c := s.db(ctx)
	sessions, err := c.ConsoleSession.Delete().Where(consolesession.LastSeenAtLT(before)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("developer: purge sessions: %w", err)
	}
	links, err := c.DeveloperEmailToken.Delete().Where(developeremailtoken.ExpiresAtLT(before)).Exec(ctx)
	if err != nil {
		return sessions, fmt.Errorf("developer: purge links: %w", err)
	}
	invitations, err := c.DeveloperInvitation.Delete().Where(developerinvitation.ExpiresAtLT(before)).Exec(ctx)
	if err != nil {
		return sessions + links, fmt.Errorf("developer: purge invitations: %w", err)
	}
	// Reservations of test shops whose making never finished.
	shops, err := c.DeveloperTestShop.Delete().
		Where(developertestshop.SellerIDIsNil(), developertestshop.CreatedAtLT(before)).Exec(ctx)
	if err != nil {
		return sessions + links + invitations, fmt.Errorf("developer: purge test shop reservations: %w", err)
	}
	return sessions + links + invitations + shops, nil
}
