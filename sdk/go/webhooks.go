package vigil

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultWebhookTolerance is how far a delivery's webhook-timestamp may be from now.
const DefaultWebhookTolerance = 5 * time.Minute

// ErrWebhookVerification is wrapped by every refusal of VerifyWebhook.
var ErrWebhookVerification = errors.New("vigil: webhook verification failed")

// VerifyWebhook checks a delivery's Standard Webhooks signature, as Vigil signs them:
// webhook-signature holds space-separated "v1,<base64 HMAC-SHA256>" signatures of
// "{webhook-id}.{webhook-timestamp}.{body}" keyed with the base64 secret after "whsec_". Pass the
// raw body as received. now is the time to check the timestamp against (time.Now() in a server).
func VerifyWebhook(secret string, header http.Header, body []byte, now time.Time, tolerance time.Duration) error {
	id, timestamp, signatures := header.Get("webhook-id"), header.Get("webhook-timestamp"), header.Get("webhook-signature")
	if id == "" || timestamp == "" || signatures == "" {
		return refuse("missing webhook-id, webhook-timestamp or webhook-signature header")
	}
	sentAt, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return refuse("webhook-timestamp is not a number of seconds")
	}
	// A replayed old delivery, or one from a clock far ahead, is refused even with a good signature.
	if math.Abs(float64(now.Unix()-sentAt)) > tolerance.Seconds() {
		return refuse("webhook-timestamp is outside the tolerance")
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return refuse("the secret is not whsec_ followed by base64")
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	expected := []byte(base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	for _, candidate := range strings.Split(signatures, " ") {
		version, value, found := strings.Cut(candidate, ",")
		if found && version == "v1" && hmac.Equal([]byte(value), expected) {
			return nil
		}
	}
	return refuse("no webhook-signature matches")
}

func refuse(reason string) error {
	return errors.Join(ErrWebhookVerification, errors.New(reason))
}
