package org.snowkey.store.json;

/** Content that is not one well-formed JSON object; the message names what was wrong and where. */
public final class MalformedJsonException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    MalformedJsonException(final String problem, final int offset) {
        super("malformed JSON at character " + offset + ": " + problem);
    }
}
