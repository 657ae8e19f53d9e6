package org.snowkey.keygen.segment;

import java.util.Map;


/**
 * The first number of each key, for tables that move to SnowKey with rows already in them. A start value only
 * ever raises a key's counter (a counter above it is left alone), so instances configured with different start
 * values can never make a key go back, and the numbers jumped over appear as a gap in the range log.
 *
 * @param defaultStart the start of keys not in {@code perKey}
 * @param perKey       starts by key
 */
public record StartValues(long defaultStart, Map<String, Long> perKey) {

    public StartValues {
        check("the default segment start value", defaultStart);
        perKey = Map.copyOf(perKey);
        perKey.forEach((key, start) -> check("the segment start value of key '" + key + "'", start));
    }

    public long startOf(final String key) {
        return perKey.getOrDefault(key, defaultStart);
    }

    private static void check(final String what, final Long value) {
        if (value == null || value < 1 || value > NumberRange.MAX_KEY) {
            throw new IllegalArgumentException(what + " is " + value + "; allowed: 1 to 2^53 - 1 (" + NumberRange.MAX_KEY + ")");
        }
    }
}
