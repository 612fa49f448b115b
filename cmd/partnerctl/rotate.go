package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/mallplatform/partnerapi/sdk"
)

// rotatePath is the Open API route that issues an app a new client secret.
const rotatePath = "/open/v1/credentials/rotate"

// runRotate rotates the secret of the selected app of the credential file
// and writes the new secret into that file in place of the old one. The
// secret is never printed: when the file cannot be written, it still holds
// the previous secret, which verifies for the overlap, and rotating again
// from it issues a secret anew.
func runRotate(o *options, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "partnerctl: rotate-secret takes no arguments (select the app with --app, the file with --credentials)")
		return exitUsage
	}
	if o.printCurl || o.field != "" {
		fmt.Fprintln(stderr, "partnerctl: rotate-secret writes the new secret into the credential file: --print-curl and --field do not apply")
		return exitUsage
	}
	if !o.set["credentials"] && (os.Getenv("PARTNER_CLIENT_ID") != "" || os.Getenv("PARTNER_CLIENT_SECRET") != "") {
		fmt.Fprintln(stderr, "partnerctl: rotate-secret updates a credential file (--credentials FILE); with credentials from the environment, send POST "+rotatePath+" and keep data.client_secret yourself")
		return exitUsage
	}
	creds, client, err := o.appFromFile()
	if err != nil {
		fmt.Fprintf(stderr, "partnerctl: %v\n", err)
		return exitFail
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	resp, err := client.DoSigned(ctx, sdk.Request{Method: http.MethodPost, Path: rotatePath})
	if err != nil {
		fmt.Fprintf(stderr, "partnerctl: %v\n", err)
		return exitFail
	}
	if !resp.OK() {
		printResponse(stderr, resp, false)
		return exitFail
	}
	var answer struct {
		Data struct {
			ClientSecret            string `json:"client_secret"`
			PreviousSecretExpiresAt string `json:"previous_secret_expires_at"`
		} `json:"data"`
	}
	if err := json.Unmarshal(resp.Body, &answer); err != nil || answer.Data.ClientSecret == "" {
		fmt.Fprintf(stderr, "partnerctl: the rotation answered %d without a secret\n", resp.Status)
		return exitFail
	}
	app := creds.Apps[o.app]
	app.ClientSecret = answer.Data.ClientSecret
	creds.Apps[o.app] = app
	if err := creds.Save(o.credentials); err != nil {
		fmt.Fprintf(stderr, "partnerctl: the secret was rotated but %s could not be written (%v); it still holds the previous secret, which verifies until %s: make the file writable and run rotate-secret again\n",
			o.credentials, err, answer.Data.PreviousSecretExpiresAt)
		return exitFail
	}
	fmt.Fprintf(stdout, "rotated the secret of app %s (%s) and wrote it to %s; the previous secret verifies until %s\n",
		o.app, client.ClientID(), o.credentials, answer.Data.PreviousSecretExpiresAt)
	return exitOK
}
