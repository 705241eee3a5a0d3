package dev.vigil.sdk;

/** No usable answer: the gateway could not be reached (after the retries). */
public class VigilException extends RuntimeException {
  public VigilException(String message, Throwable cause) {
    super(message, cause);
  }
}
