package dev.vigil.sdk;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WebhooksTest {
  @Test
  void acceptsTheSharedVector() throws Exception {
    var v = WebhookVector.load();
    assertDoesNotThrow(() -> Webhooks.verify(v.secret(), v.headers(), v.body().getBytes(StandardCharsets.UTF_8),
        Instant.ofEpochSecond(v.now()), Webhooks.DEFAULT_TOLERANCE));
  }

  @Test
  void refusesAChangedBody() throws Exception {
    var v = WebhookVector.load();
    byte[] changed = v.body().replace("review", "clear").getBytes(StandardCharsets.UTF_8);
    var error = assertThrows(Webhooks.VerificationException.class, () -> Webhooks.verify(v.secret(), v.headers(),
        changed, Instant.ofEpochSecond(v.now()), Webhooks.DEFAULT_TOLERANCE));
    assertTrue(error.getMessage().contains("no webhook-signature matches"));
  }

  @Test
  void refusesAnOldDelivery() throws Exception {
    var v = WebhookVector.load();
    long late = Long.parseLong(v.headers().get("webhook-timestamp")) + v.toleranceSeconds() + 1;
    var error = assertThrows(Webhooks.VerificationException.class, () -> Webhooks.verify(v.secret(), v.headers(),
        v.body().getBytes(StandardCharsets.UTF_8), Instant.ofEpochSecond(late), Webhooks.DEFAULT_TOLERANCE));
    assertTrue(error.getMessage().contains("tolerance"));
  }
}
