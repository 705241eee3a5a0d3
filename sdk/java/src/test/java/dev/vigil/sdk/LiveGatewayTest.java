package dev.vigil.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.sdk.generated.model.ScreeningApiControllerScreen200Response;
import dev.vigil.sdk.generated.model.ScreeningApiControllerScreenRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Against a running gateway: mvn test -Dsdk.excludedGroups=none with VIGIL_API_URL and VIGIL_API_KEY. */
@Tag("live")
class LiveGatewayTest {
  static Vigil vigil() {
    String url = System.getenv("VIGIL_API_URL");
    String key = System.getenv("VIGIL_API_KEY");
    assertTrue(url != null && key != null, "set VIGIL_API_URL and VIGIL_API_KEY to a gateway and an API key");
    return Vigil.builder(url, key).build();
  }

  @Test
  void screensANameIntoTheGeneratedModel() {
    var vigil = vigil();
    ScreeningApiControllerScreen200Response answer = vigil.call(() -> vigil.screening().screeningApiControllerScreen(
        null, null, new ScreeningApiControllerScreenRequest().name("Nicolas Maduro Moros").nationality("VE")));
    assertTrue(answer.getMatch());
    assertFalse(answer.getResults().isEmpty());
    assertFalse(answer.getListVersions().isEmpty());
    assertNotNull(answer.getAlgorithm());
  }

  @Test
  void aBadRequestIsATypedProblem() {
    var vigil = vigil();
    var problem = assertThrows(VigilProblemException.class, () -> vigil.call(() -> vigil.screening()
        .screeningApiControllerScreen(
            null, null, new ScreeningApiControllerScreenRequest().name("Jane Doe").dateOfBirth("23 November 1962"))));
    assertEquals(400, problem.status());
    assertEquals("VALIDATION_FAILED", problem.code());
    assertTrue(problem.errors().stream().anyMatch(e -> e.getPointer().equals("/dateOfBirth")), problem.getMessage());
  }

  @Test
  void verifiesAWebhookSignature() throws Exception {
    var v = WebhookVector.load();
    Webhooks.verify(v.secret(), v.headers(), v.body().getBytes(StandardCharsets.UTF_8), Instant.ofEpochSecond(v.now()),
        Webhooks.DEFAULT_TOLERANCE);
  }
}
