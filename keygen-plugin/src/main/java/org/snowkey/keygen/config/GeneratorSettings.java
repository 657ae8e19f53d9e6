package org.snowkey.keygen.config;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Properties;
import java.util.TreeSet;
import java.util.Set;

import org.snowkey.keygen.layout.IdLayout;

/**
 * The generator's settings, parsed and validated from key generator props.
 *
 * @param layout bit layout and epoch
 * @param workerId the static worker id, or null when none is configured
 * @param clockRules the tolerance for a clock that moved back and the time cache cap, handed whole to the generator
 * @param sequenceScope one stream per table or one for all tables
 * @param maxWorkerIds how many worker ids of its lease pool a hot generator may issue on at once (1: only its own)
 */
public record GeneratorSettings(IdLayout layout, Integer workerId, ClockRules clockRules, SequenceScope sequenceScope, int maxWorkerIds) {

    public static final String DEFAULT_EPOCH = "2025-01-01T00:00:00Z";

    public static final int DEFAULT_WORKER_ID_BITS = 13;

    public static final int DEFAULT_SEQUENCE_LOW_BITS = 1;

    /** Same default as ShardingSphere's SNOWFLAKE. */
    public static final long DEFAULT_MAX_TOLERATE_TIME_DIFFERENCE_MILLIS = 10L;

    /**
     * Ten seconds of idle time are kept for bursts: 5.1 million ids at the default layout. Decoded timestamps
     * of a burst then lie at most ten seconds before the insert. A larger cap buys burst capacity at the cost
     * of decoded timestamps further in the past; 0 turns the cache off.
     */
    public static final long DEFAULT_MAX_TIME_CACHE_MILLIS = 10_000L;

    /**
     * A generator whose calls keep waiting for the clock leases up to 32 worker ids of its pool (8.2 million ids/s at the
     * default layout, twice what one ShardingSphere SNOWFLAKE worker issues), and gives them back when demand falls;
     * a quarter of every pool stays free for other instances (docs/design.md, "Holdings: more worker ids for a hot
     * generator").
     */
    public static final int DEFAULT_MAX_WORKER_IDS = 32;

    /** No more than a day: a longer wait is a broken clock, not a tolerance. */
    private static final long MAX_TOLERANCE_MILLIS = 86_400_000L;

    /**
     * Parses the generator props, rejecting unknown ones.
     *
     * @param props the key generator props
     * @param otherKnownProps props that a lease backend reads (not validated here)
     * @param nowMillis the wall clock, to check that the epoch lies in the past
     */
    public static GeneratorSettings parse(final Properties props, final Set<String> otherKnownProps, final long nowMillis) {
        PropertyReader reader = new PropertyReader(props);
        rejectUnknown(reader.props(), otherKnownProps);
        int workerIdBits = reader.intValue(PropertyNames.WORKER_ID_BITS, DEFAULT_WORKER_ID_BITS, IdLayout.MIN_WORKER_ID_BITS, IdLayout.MAX_WORKER_ID_BITS);
        int sequenceBits = IdLayout.NODE_AND_SEQUENCE_BITS - workerIdBits;
        // At least one sequence bit stays above the low ones: they count the ids of every table of a worker id together
        // (docs/design.md, "One id space per worker id"); with none, a worker id could issue one id per millisecond.
        // At the widest worker id (one sequence bit) that leaves no room for low bits, so the default gives way there.
        int lowBits = reader.intValue(PropertyNames.SEQUENCE_LOW_BITS, Math.min(DEFAULT_SEQUENCE_LOW_BITS, sequenceBits - 1), 0, sequenceBits - 1);
        long epoch = parseEpoch(reader, nowMillis);
        Integer workerId = reader.has(PropertyNames.WORKER_ID)
                ? reader.intValue(PropertyNames.WORKER_ID, 0, 0, (1 << workerIdBits) - 1)
                : null;
        long tolerance = reader.longValue(PropertyNames.MAX_TOLERATE_TIME_DIFFERENCE_MILLISECONDS, DEFAULT_MAX_TOLERATE_TIME_DIFFERENCE_MILLIS, 0, MAX_TOLERANCE_MILLIS);
        long cache = reader.longValue(PropertyNames.MAX_TIME_CACHE_MILLISECONDS, DEFAULT_MAX_TIME_CACHE_MILLIS, 0, IdLayout.MAX_TIMESTAMP);
        SequenceScope scope = SequenceScope.parse(reader.text(PropertyNames.SEQUENCE_SCOPE, SequenceScope.TABLE.propertyValue()));
        int maxWorkerIds = reader.intValue(PropertyNames.MAX_WORKER_IDS_PER_INSTANCE, DEFAULT_MAX_WORKER_IDS, 1, 1 << workerIdBits);
        if (workerId != null && maxWorkerIds > 1 && reader.has(PropertyNames.MAX_WORKER_IDS_PER_INSTANCE)) {
            throw new InvalidSettingException(PropertyNames.MAX_WORKER_IDS_PER_INSTANCE, String.valueOf(maxWorkerIds),
                    "more worker ids are leased from a lease-registry; a static " + PropertyNames.WORKER_ID + " (" + workerId + ") is one worker id");
        }
        return new GeneratorSettings(IdLayout.of(workerIdBits, lowBits, epoch), workerId, new ClockRules(tolerance, cache), scope, maxWorkerIds);
    }

    /** How long a call may wait for a clock that moved back, as parsed. */
    public long maxTolerateTimeDifferenceMillis() {
        return clockRules.maxTolerateTimeDifferenceMillis();
    }

    /** The time cache cap, as parsed. */
    public long maxTimeCacheMillis() {
        return clockRules.maxTimeCacheMillis();
    }

    private static void rejectUnknown(final Properties props, final Set<String> otherKnownProps) {
        for (Object key : props.keySet()) {
            String name = String.valueOf(key);
            if (!PropertyNames.GENERATOR.contains(name) && !PropertyNames.SHARED_LEASE.contains(name) && !otherKnownProps.contains(name)) {
                Set<String> known = new TreeSet<>(PropertyNames.GENERATOR);
                known.addAll(PropertyNames.SHARED_LEASE);
                known.addAll(otherKnownProps);
                throw InvalidSettingException.unknown(name, props.get(key), "unknown property; known properties are " + known);
            }
        }
    }

    private static long parseEpoch(final PropertyReader reader, final long nowMillis) {
        String text = reader.text(PropertyNames.EPOCH, DEFAULT_EPOCH);
        long epoch;
        try {
            epoch = text.chars().allMatch(Character::isDigit) ? Long.parseLong(text) : Instant.parse(text).toEpochMilli();
        } catch (final DateTimeParseException | NumberFormatException ex) {
            throw new InvalidSettingException(PropertyNames.EPOCH, text, "expected an ISO-8601 instant such as 2025-01-01T00:00:00Z or epoch milliseconds");
        }
        if (epoch > nowMillis) {
            throw new InvalidSettingException(PropertyNames.EPOCH, text, "the epoch must lie in the past (now is " + Instant.ofEpochMilli(nowMillis) + ")");
        }
        if (nowMillis - epoch >= IdLayout.MAX_TIMESTAMP) {
            throw new InvalidSettingException(PropertyNames.EPOCH, text, "41 bits of milliseconds from this epoch ran out at "
                    + Instant.ofEpochMilli(epoch + IdLayout.MAX_TIMESTAMP) + "; choose a later epoch");
        }
        return epoch;
    }
}
