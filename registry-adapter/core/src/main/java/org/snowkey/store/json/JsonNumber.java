package org.snowkey.store.json;

/**
 * A JSON number kept as its source token, so that nothing is rounded before the reader decides what it accepts.
 *
 * @param token the number exactly as written, e.g. {@code -12}, {@code 1.5e3}
 * @param isWhole true when the token has neither a fraction nor an exponent
 */
public record JsonNumber(String token, boolean isWhole) {

    @Override
    public String toString() {
        return token;
    }
}
