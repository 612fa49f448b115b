package openapi

import (
	"google.golang.org/protobuf/proto"

	consolepagesv1 "github.com/mallplatform/partnerapi/gen/mp/consolepages/v1"
	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
)

// Illustrative console ids: an app, a test shop (its seller), a
// membership and an invitation.
const (
	exampleApp        = "app_01JQ3ZK8D6W1Y4V9N2R5T7B0C3"
	exampleTestShop   = "slr_01kaq3m8v5yq6b7c9d0e1f2g3j"
	exampleMember     = "dmem_01kaq3m8v5yq6b7c9d0e1f2g3k"
	exampleInvitation = "dinv_01kaq3m8v5yq6b7c9d0e1f2g3m"
)

// The developer console's example requests (see examples).
func init() {
	for name, ex := range map[string]proto.Message{
		developerv1.DeveloperService_SignUp_FullMethodName: &developerv1.SignUpRequest{Email: "ana.cruz@partner.example.ph",
			Password: "correct horse battery staple", Name: "Ana Cruz", DeveloperType: "INDIVIDUAL"},
		developerv1.DeveloperService_Verify_FullMethodName:             &developerv1.VerifyRequest{Token: "Vq3n8uJk2mX0rT5yW7zA1cE4gH6iL9oP_bD-fN8sQ2w"},
		developerv1.DeveloperService_ResendVerification_FullMethodName: &developerv1.ResendVerificationRequest{Email: "ana.cruz@partner.example.ph"},
		developerv1.DeveloperService_SignIn_FullMethodName: &developerv1.SignInRequest{Email: "ana.cruz@partner.example.ph",
			Password: "correct horse battery staple"},
		developerv1.DeveloperService_SubmitProfile_FullMethodName: &developerv1.SubmitProfileRequest{FullName: "Ana Cruz",
			DateOfBirth: "1990-01-31", IdType: "passport", IdNumber: "P1234567A",
			Address: &developerv1.ProfileAddress{Line1: "6750 Ayala Avenue", City: "Makati", Province: "Metro Manila",
				PostalCode: "1226", Country: "PH"}},
		developerv1.DeveloperService_CreateApp_FullMethodName: &developerv1.CreateAppRequest{Name: "Shop sync",
			Environment: "sandbox", Scopes: []string{"catalog:read", "orders:read"},
			RedirectUris: []string{"https://oms.example.ph/oauth/callback"}},
		developerv1.DeveloperService_GetApp_FullMethodName:          &developerv1.GetAppRequest{Id: exampleApp},
		developerv1.DeveloperService_RotateAppSecret_FullMethodName: &developerv1.RotateAppSecretRequest{Id: exampleApp},
		developerv1.DeveloperService_UpdateApp_FullMethodName: &developerv1.UpdateAppRequest{Id: exampleApp, Name: "Shop sync (orders)",
			Scopes: []string{"orders:read"}, RedirectUris: []string{"https://oms.example.ph/oauth/callback"}},
		developerv1.DeveloperService_DeactivateApp_FullMethodName:     &developerv1.DeactivateAppRequest{Id: exampleApp},
		developerv1.DeveloperService_DeleteApp_FullMethodName:         &developerv1.DeleteAppRequest{Id: exampleApp},
		developerv1.DeveloperService_GetAppCredentials_FullMethodName: &developerv1.GetAppCredentialsRequest{Id: exampleApp},
		developerv1.DeveloperService_CreateTestShop_FullMethodName:    &developerv1.CreateTestShopRequest{ShopName: "Cruz Gadgets (test)"},
		developerv1.DeveloperService_AuthorizeTestShop_FullMethodName: &developerv1.AuthorizeTestShopRequest{Id: exampleTestShop,
			AppId: exampleApp},
		developerv1.DeveloperService_InviteMember_FullMethodName: &developerv1.InviteMemberRequest{Email: "ben.reyes@partner.example.ph",
			Role: "DEVELOPER"},
		developerv1.DeveloperService_UpdateMember_FullMethodName:     &developerv1.UpdateMemberRequest{Id: exampleMember, Role: "VIEWER"},
		developerv1.DeveloperService_RemoveMember_FullMethodName:     &developerv1.RemoveMemberRequest{Id: exampleMember},
		developerv1.DeveloperService_RevokeInvitation_FullMethodName: &developerv1.RevokeInvitationRequest{Id: exampleInvitation},
		developerv1.DeveloperService_AcceptInvitation_FullMethodName: &developerv1.AcceptInvitationRequest{
			Token: "Hk7s2Lp9Qw4Ez1Rt6Yu3Io8Pa5Sd0Fg_jK-lZ7xC2vB"},
		// The console's pages: the links' pages and the sign-in's next.
		consolepagesv1.ConsolePageService_GetVerifyPage_FullMethodName: &consolepagesv1.GetVerifyPageRequest{
			Token: "Vq3n8uJk2mX0rT5yW7zA1cE4gH6iL9oP_bD-fN8sQ2w"},
		consolepagesv1.ConsolePageService_GetInvitationPage_FullMethodName: &consolepagesv1.GetInvitationPageRequest{
			Token: "Hk7s2Lp9Qw4Ez1Rt6Yu3Io8Pa5Sd0Fg_jK-lZ7xC2vB"},
		consolepagesv1.ConsolePageService_GetSignInPage_FullMethodName: &consolepagesv1.GetSignInPageRequest{Next: "/console/apps"},
		consolepagesv1.ConsolePageService_GetAppPage_FullMethodName:    &consolepagesv1.GetAppPageRequest{Id: exampleApp},
		consolepagesv1.ConsolePageService_GetAsset_FullMethodName:      &consolepagesv1.GetAssetRequest{Name: "console.3f2a9c1b7d4e.css"},
	} {
		examples[name] = ex
	}
}
