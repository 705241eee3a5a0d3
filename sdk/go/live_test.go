//go:build live

// Against a running gateway: go test -tags live with VIGIL_API_URL and VIGIL_API_KEY
// (web/e2e/sdks.e2e.ts sets them).
package vigil_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	vigil "github.com/vigil-dev/vigil/sdk/go"
)

func liveClient(t *testing.T) *vigil.ClientWithResponses {
	url, key := os.Getenv("VIGIL_API_URL"), os.Getenv("VIGIL_API_KEY")
	if url == "" || key == "" {
		t.Fatal("set VIGIL_API_URL and VIGIL_API_KEY to a running gateway and a client's API key")
	}
	client, err := vigil.New(url, key, vigil.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

func TestLiveScreensANameIntoTheGeneratedType(t *testing.T) {
	nationality := "VE"
	response, err := liveClient(t).ScreeningApiControllerScreenWithResponse(context.Background(), nil,
		vigil.ScreeningApiControllerScreenJSONRequestBody{Name: name("Nicolas Maduro Moros"), Nationality: &nationality})
	if err != nil {
		t.Fatal(err)
	}
	answer := response.JSON200
	if answer == nil || !answer.Match || len(answer.Results) == 0 || len(answer.ListVersions) == 0 || answer.Algorithm == "" {
		t.Fatalf("expected a typed match with list versions: %s", response.Body)
	}
}

func TestLiveABadRequestIsATypedProblem(t *testing.T) {
	dob := "23 November 1962"
	_, err := liveClient(t).ScreeningApiControllerScreenWithResponse(context.Background(), nil,
		vigil.ScreeningApiControllerScreenJSONRequestBody{Name: name("Jane Doe"), DateOfBirth: &dob})
	var problem *vigil.ProblemError
	if !errors.As(err, &problem) || problem.Status != 400 || problem.Code != "VALIDATION_FAILED" {
		t.Fatalf("expected a 400 VALIDATION_FAILED problem, got %v", err)
	}
	found := false
	for _, e := range *problem.Errors {
		found = found || e.Pointer == "/dateOfBirth"
	}
	if !found {
		t.Fatalf("no error points at /dateOfBirth: %+v", *problem.Errors)
	}
}

func TestLiveVerifiesAWebhookSignature(t *testing.T) {
	vector, header := loadVector(t)
	if err := vigil.VerifyWebhook(vector.Secret, header, []byte(vector.Body), time.Unix(vector.Now, 0), vigil.DefaultWebhookTolerance); err != nil {
		t.Fatal(err)
	}
}
