package org.snowkey.keygen.segment.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.generator.StreamNames;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;

/**
 * The props of {@code SNOWKEY_SEGMENT} that every allocator shares: the public contract, spelled as users write them
 * in ShardingSphere YAML. Each backend adds its own ({@code jdbc-*}, {@code zookeeper-*}).
 */
public final class SegmentProps {

    /** {@code jdbc} or {@code zookeeper}; may be left out in ShardingSphere Cluster mode with ZooKeeper. */
    public static final String ALLOCATOR = "segment-allocator";

    /** One key for every table of this key generator, instead of one per logic table. */
    public static final String KEY = "segment-key";

    /** The first key of every sequence of this key generator (default 1). */
    public static final String START_VALUE = "segment-start-value";

    /** First keys by sequence key: {@code sharding_db.t_order=1000001, sharding_db.t_item=5001}. */
    public static final String START_VALUES = "segment-start-values";

    public static final Set<String> NAMES = Set.of(ALLOCATOR, KEY, START_VALUE, START_VALUES, SegmentSettings.STEP_MIN, SegmentSettings.STEP_MAX,
            SegmentSettings.RANGE_LIFETIME_MILLISECONDS, SegmentSettings.PREFETCH_PERCENT, SegmentSettings.FETCH_TIMEOUT_MILLISECONDS);

    private SegmentProps() {
    }

    /** The sizing and fetching of the ranges, each prop over its default. */
    static SegmentSettings sequenceSettings(final PropertyReader reader) {
        SegmentSettings defaults = SegmentSettings.defaults();
        return new SegmentSettings(
                reader.longValue(SegmentSettings.STEP_MIN, defaults.minStep(), 1, NumberRange.MAX_KEY),
                reader.longValue(SegmentSettings.STEP_MAX, Math.max(defaults.maxStep(), reader.longValue(SegmentSettings.STEP_MIN, defaults.minStep(), 1, NumberRange.MAX_KEY)), 1,
                        NumberRange.MAX_KEY),
                reader.longValue(SegmentSettings.RANGE_LIFETIME_MILLISECONDS, defaults.targetLifetimeMillis(), 1, 86_400_000L),
                reader.intValue(SegmentSettings.PREFETCH_PERCENT, defaults.prefetchPercent(), 0, 99),
                reader.longValue(SegmentSettings.FETCH_TIMEOUT_MILLISECONDS, defaults.fetchTimeoutMillis(), 1, 600_000L));
    }

    /** The shared key, folded like a table name, or null for a sequence per logic table. */
    static String sharedKey(final PropertyReader reader) {
        String key = reader.text(KEY);
        return key == null ? null : sequenceKey(KEY, key);
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
