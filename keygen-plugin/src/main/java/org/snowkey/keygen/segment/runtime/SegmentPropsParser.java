package org.snowkey.keygen.segment.runtime;

import static org.snowkey.keygen.segment.SegmentPropertyNames.START_VALUE;
import static org.snowkey.keygen.segment.SegmentPropertyNames.START_VALUES;

import java.util.LinkedHashMap;
import java.util.Map;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.generator.StreamNames;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.StartValues;

/**
 * Reads the start values of the {@code SNOWKEY_SEGMENT} props ({@code segment-start-value(s)}), and folds sequence keys
 * as ShardingSphere folds table names (for {@link SegmentKey} too). The sizing props are read by
 * {@link org.snowkey.keygen.segment.SegmentSettings#parse}, the allocators read their own.
 */
final class SegmentPropsParser {

    private SegmentPropsParser() {
    }

    /** Sequence keys are folded as ShardingSphere folds logic table names (case, quotes), so one table is one key. */
    static String sequenceKey(final String prop, final String key) {
        String folded;
        try {
            folded = StreamNames.normalise(key);
        } catch (final IllegalArgumentException ex) {
            throw new InvalidSettingException(prop, key, "a non-blank key of at most 191 characters");
        }
        if (folded.length() > 191) {
            throw new InvalidSettingException(prop, key, "a non-blank key of at most 191 characters");
        }
        return folded;
    }

    static StartValues startValues(final PropertyReader reader) {
        long defaultStart = reader.longValue(START_VALUE, 1L, 1L, NumberRange.MAX_KEY);
        Map<String, Long> perKey = new LinkedHashMap<>();
        String text = reader.text(START_VALUES);
        if (text != null) {
            for (String entry : text.split(",")) {
                int equals = entry.indexOf('=');
                if (entry.isBlank() || equals < 0) {
                    throw new InvalidSettingException(START_VALUES, text, "comma-separated key=value entries, e.g. sharding_db.t_order=1000001; '"
                            + entry.trim() + "' has no '='");
                }
                String key = sequenceKey(START_VALUES, entry.substring(0, equals).trim());
                String value = entry.substring(equals + 1).trim();
                long start;
                try {
                    start = Long.parseLong(value);
                } catch (final NumberFormatException ex) {
                    start = 0;
                }
                if (start < 1 || start > NumberRange.MAX_KEY) {
                    throw new InvalidSettingException(START_VALUES, text, "each start value a whole number from 1 to " + NumberRange.MAX_KEY + "; key '" + key
                            + "' has '" + value + "'");
                }
                if (perKey.put(key, start) != null) {
                    throw new InvalidSettingException(START_VALUES, text, "each key once; key '" + key + "' is given twice");
                }
            }
        }
        return new StartValues(defaultStart, perKey);
    }
}
