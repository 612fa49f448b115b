package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"
)

// Seller passwords are hashed with argon2id at OWASP's minimum parameters
// (19 MiB, 2 passes, 1 lane), kept in the PHC string form so the parameters
// can be raised later without invalidating stored hashes.
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// PasswordCost is the argon2id cost of the password hashes a service
// writes: the sellers' logins here, the console's developers in
// services/developer. The zero value is the production cost, OWASP's minimum
// (19 MiB, 2 passes); a lower one is refused unless TestOnly is set, which
// only test environments do: under the race detector one hash at the
// production cost takes about half a second, and every seeded sandbox
// hashes two passwords. Hashes carry their parameters, so checking one
// costs what it was written with.
type PasswordCost struct {
	MemoryKiB uint32
	Passes    uint32
	TestOnly  bool
}

// TestPasswordCost is the cheap cost of test environments' password
// hashes.
var TestPasswordCost = PasswordCost{MemoryKiB: 64, Passes: 1, TestOnly: true}

// Validate refuses a cost that names only one of memory and passes, or one
// below the production cost without TestOnly.
func (c PasswordCost) Validate() error {
	switch {
	case c.MemoryKiB == 0 && c.Passes == 0:
		return nil
	case c.MemoryKiB == 0 || c.Passes == 0:
		return errors.New("auth: a password cost needs both memory and passes")
	case (c.MemoryKiB < argonMemoryKiB || c.Passes < argonTime) && !c.TestOnly:
		return fmt.Errorf("auth: a password cost below %d KiB and %d passes is for tests only", argonMemoryKiB, argonTime)
	}
	return nil
}

func (c PasswordCost) orDefault() PasswordCost {
	if c.MemoryKiB == 0 {
		return PasswordCost{MemoryKiB: argonMemoryKiB, Passes: argonTime}
	}
	return c
}

// HashPassword returns the PHC-format argon2id hash of password at the
// production cost.
func HashPassword(password string) (string, error) {
	return hashPassword(password, PasswordCost{})
}

// Hash returns the PHC-format argon2id hash of password at the cost (the
// zero cost: the production one). The cost is not validated here: the
// service that holds it validated it when it was configured.
func (c PasswordCost) Hash(password string) (string, error) {
	return hashPassword(password, c)
}

func hashPassword(password string, cost PasswordCost) (string, error) {
	cost = cost.orDefault()
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, cost.Passes, cost.MemoryKiB, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, cost.MemoryKiB, cost.Passes, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// dummyPasswordHash is checked against when no login matches, so that an
// unknown username costs the same time as a wrong password. It is made on
// first use (NewFlow starts that), not when a program that merely imports
// the package starts.
var dummyPasswordHash = sync.OnceValue(func() string {
	h, err := HashPassword("no login has this password")
	if err != nil {
		panic(err)
	}
	return h
})

var errPasswordHash = errors.New("auth: stored password hash is malformed")

// CheckPassword reports whether password matches the PHC hash, in constant
// time over the derived key.
func CheckPassword(hash, password string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errPasswordHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errPasswordHash
	}
	var memory, passes uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &passes, &threads); err != nil {
		return false, errPasswordHash
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, errPasswordHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, errPasswordHash
	}
	got := argon2.IDKey([]byte(password), salt, passes, memory, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
