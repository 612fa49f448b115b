// Command partnerctl calls the Partner Marketplace Open API as a partner app,
// signing every request with HMAC signature version 3.
//
//	partnerctl [flags] METHOD PATH [BODY|@file|-]
//
// Run partnerctl -h for the flags.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
