package redact_test

import (
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/redact"
)

func TestURLMasksThePassword(t *testing.T) {
	const pw = "S3cret"
	for _, tc := range []struct{ raw, want string }{
		{"rediss://gateway:" + pw + "@redis.example.ph:6380/1", "rediss://gateway:xxxxx@redis.example.ph:6380/1"},
		{"redis://:" + pw + "@10.0.0.5", "redis://:xxxxx@10.0.0.5"},
		// Unescaped reserved characters: net/url would read the password
		// as the path, the query or the fragment.
		{"redis://gw:12345/" + pw + "@redis:6379", "redis://gw:xxxxx@redis:6379"},
		{"redis://gw:1?" + pw + "@redis:6379/0", "redis://gw:xxxxx@redis:6379/0"},
		{"redis://gw:a#" + pw + "@redis:6379", "redis://gw:xxxxx@redis:6379"},
		{"redis://gw:a@" + pw + "@redis:6379", "redis://gw:xxxxx@redis:6379"},
		{"postgres://app:" + pw + "@db:5432/mp?sslmode=require", "postgres://app:xxxxx@db:5432/mp?sslmode=require"},
		{"postgres://db:5432/mp?user=app&password=" + pw + "&sslmode=require", "postgres://db:5432/mp?user=app&password=xxxxx&sslmode=require"},
		{"host=db user=app password=" + pw + " dbname=mp", "host=db user=app password=xxxxx dbname=mp"},
		{"host=db password='" + pw + " x' dbname=mp", "host=db password=xxxxx dbname=mp"},
		// A user name that is not plainly one may be a password.
		{"redis://" + pw + "%zz@redis:6379", "redis://xxxxx@redis:6379"},
		// Nothing to hide.
		{"redis://redis:6379/0", "redis://redis:6379/0"},
		{"data/dev.db", "data/dev.db"},
	} {
		got := redact.URL(tc.raw)
		if got != tc.want {
			t.Errorf("URL(%q) = %q, want %q", strings.ReplaceAll(tc.raw, pw, "PW"), got, tc.want)
		}
		if strings.Contains(got, pw) {
			t.Errorf("URL(%q) shows the password", tc.raw)
		}
	}
}
