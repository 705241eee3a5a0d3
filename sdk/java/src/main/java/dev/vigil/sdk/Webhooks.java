package dev.vigil.sdk;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signature verification, as Vigil signs its deliveries: {@code webhook-signature}
 * holds space-separated {@code v1,<base64 HMAC-SHA256>} signatures of
 * {@code {webhook-id}.{webhook-timestamp}.{body}}, keyed with the base64 secret after {@code whsec_}.
 */
public final class Webhooks {
  public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

  /** The delivery is not signed by this secret, or is too old or too new to trust. */
  public static final class VerificationException extends Exception {
    public VerificationException(String message) {
      super(message);
    }
  }

  private Webhooks() {}

  /** Returns when the delivery is authentic. Pass the raw body exactly as received. */
  public static void verify(String secret, Map<String, String> headers, byte[] body, Instant now, Duration tolerance)
      throws VerificationException {
    Map<String, String> lower = new TreeMap<>();
    headers.forEach((name, value) -> lower.put(name.toLowerCase(Locale.ROOT), value));
    String id = lower.get("webhook-id");
    String timestamp = lower.get("webhook-timestamp");
    String signatures = lower.get("webhook-signature");
    if (id == null || timestamp == null || signatures == null) {
      throw new VerificationException("missing webhook-id, webhook-timestamp or webhook-signature header");
    }
    long sentAt;
    try {
      sentAt = Long.parseLong(timestamp);
    } catch (NumberFormatException error) {
      throw new VerificationException("webhook-timestamp is not a number of seconds");
    }
    // A replayed old delivery, or one from a clock far ahead, is refused even with a good signature.
    if (Math.abs(now.getEpochSecond() - sentAt) > tolerance.toSeconds()) {
      throw new VerificationException("webhook-timestamp is outside the tolerance");
    }
    byte[] expected;
    try {
      byte[] key = Base64.getDecoder().decode(secret.startsWith("whsec_") ? secret.substring(6) : secret);
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
      expected = Base64.getEncoder().encode(mac.doFinal(body));
    } catch (GeneralSecurityException | IllegalArgumentException error) {
      throw new VerificationException("the secret is not whsec_ followed by base64");
    }
    for (String candidate : signatures.split(" ")) {
      int comma = candidate.indexOf(',');
      if (comma < 0 || !candidate.substring(0, comma).equals("v1")) continue;
      byte[] value = candidate.substring(comma + 1).getBytes(StandardCharsets.US_ASCII);
      if (MessageDigest.isEqual(value, expected)) return;
    }
    throw new VerificationException("no webhook-signature matches");
  }

  /** {@link #verify(String, Map, byte[], Instant, Duration)} now, with the default tolerance of five minutes. */
  public static void verify(String secret, Map<String, String> headers, byte[] body) throws VerificationException {
    verify(secret, headers, body, Instant.now(), DEFAULT_TOLERANCE);
  }
}
