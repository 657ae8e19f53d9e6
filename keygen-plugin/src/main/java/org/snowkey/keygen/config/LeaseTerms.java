package org.snowkey.keygen.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * The lease props every registry shares ({@link PropertyNames#SHARED_LEASE}), parsed and validated, as the lease
 * uses them. They are parsed here, in the plugin, and not by a lease backend, so that they are checked at start-up
 * whether or not a backend is on the class path or a lease is taken at all: a value out of range always fails, and
 * a value that cannot apply (a static worker id takes no lease) is rejected rather than ignored. The lease and the
 * store's provider read this record as it is, with no copy in between; what they derive from the duration (the
 * renewal and retry intervals, a store call's timeout) is derived here.
 *
 * <p>The two durations trade outage tolerance against how long a crashed holder's number stays out of use:
 * <ul>
 *   <li>{@code lease-duration-milliseconds}, default {@value #DEFAULT_DURATION_MILLIS} (60 s). A holder renews every
 *       third of it and reserves timestamps up to one full duration ahead, so a registry outage of up to 40-60 s
 *       is invisible to inserts (ZooKeeper leader elections and rolling restarts fit in it). The price: the number
 *       of a process that dies without releasing stays out of use for up to 60 s, which is cheap with 8192
 *       numbers; a graceful shutdown releases at once. Shorter leases free crashed numbers sooner but turn
 *       shorter outages into failed inserts.</li>
 *   <li>{@code lease-acquire-timeout-milliseconds}, default {@value #DEFAULT_ACQUIRE_TIMEOUT_MILLIS} (15 s): how
 *       long start-up retries an unreachable registry or a full pool, and how long an insert waits for a fresh
 *       lease after losing one, before failing with a clear error. Long enough for a registry that is just
 *       starting, short enough that a broken configuration fails start-up quickly.</li>
 * </ul>
 *
 * @param pool the pool name ({@code lease-pool}, default {@value #DEFAULT_POOL})
 * @param durationMillis how long a lease lasts without renewal
 * @param acquireTimeoutMillis how long acquisition retries before failing
 * @param instanceId who holds the lease, for operators ({@code instance-id}); null stands for the default, host name and
 *                   process id, which {@link #instanceId()} returns
 */
public record LeaseTerms(String pool, long durationMillis, long acquireTimeoutMillis, String instanceId) {

    public static final String DEFAULT_POOL = "default";

    public static final long DEFAULT_DURATION_MILLIS = 60_000L;

    public static final long DEFAULT_ACQUIRE_TIMEOUT_MILLIS = 15_000L;

    /** Below a second, renewal (every third of the lease) would race ordinary registry latency. */
    public static final long MIN_DURATION_MILLIS = 1_000L;

    /** A day: beyond that a crashed holder's number would be lost for too long to be a sensible setting. */
    public static final long MAX_DURATION_MILLIS = 86_400_000L;

    public static final long MAX_ACQUIRE_TIMEOUT_MILLIS = 3_600_000L;

    public static final int MAX_INSTANCE_ID_LENGTH = 200;

    /** Pool names become ZooKeeper node names and table values: keep them plain. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    /** One store call may take this fraction of the lease at most. */
    private static final long LEASE_FRACTION_FOR_STORE_CALL = 4L;

    public LeaseTerms {
        if (durationMillis < MIN_DURATION_MILLIS) {
            throw new IllegalArgumentException("lease duration below " + MIN_DURATION_MILLIS + " ms: " + durationMillis);
        }
    }

    /**
     * Reads the shared lease props, each with its default when not set.
     *
     * @throws InvalidSettingException naming the prop and the value
     */
    public static LeaseTerms parse(final PropertyReader reader) {
        String pool = reader.text(PropertyNames.LEASE_POOL, DEFAULT_POOL);
        if (!NAME.matcher(pool).matches() || ".".equals(pool) || "..".equals(pool)) {
            throw new InvalidSettingException(PropertyNames.LEASE_POOL, pool, "expected 1 to 64 letters, digits, '_', '-' or '.'");
        }
        long duration = reader.longValue(PropertyNames.LEASE_DURATION_MILLISECONDS, DEFAULT_DURATION_MILLIS, MIN_DURATION_MILLIS, MAX_DURATION_MILLIS);
        long acquireTimeout = reader.longValue(PropertyNames.LEASE_ACQUIRE_TIMEOUT_MILLISECONDS, DEFAULT_ACQUIRE_TIMEOUT_MILLIS, 0, MAX_ACQUIRE_TIMEOUT_MILLIS);
        String instanceId = reader.text(PropertyNames.INSTANCE_ID, null);
        if (instanceId != null && (instanceId.length() > MAX_INSTANCE_ID_LENGTH || instanceId.chars().anyMatch(Character::isISOControl))) {
            throw new InvalidSettingException(PropertyNames.INSTANCE_ID, instanceId, "expected at most " + MAX_INSTANCE_ID_LENGTH + " printable characters");
        }
        return new LeaseTerms(pool, duration, acquireTimeout, instanceId);
    }

    /**
     * Who holds the lease: {@code instance-id}, or else host name and process id, unique among live processes and
     * telling an operator where to look. The default is looked up on first use, not at parse: a key generator that
     * takes no lease never asks the host its name.
     */
    @Override
    public String instanceId() {
        return instanceId != null ? instanceId : DefaultInstanceId.VALUE;
    }

    /** Renewal period: a third of the lease, so two renewals may fail before the reservation runs out. */
    public long renewIntervalMillis() {
        return Math.max(1, durationMillis / 3);
    }

    /** Retry period after a failed renewal or acquisition attempt: often enough to use a short recovery. */
    public long retryIntervalMillis() {
        return Math.max(50, Math.min(1_000, durationMillis / 10));
    }

    /**
     * How long one store call (a statement, a connection attempt) may take: a quarter of the lease at most, so that a
     * hung store still leaves time for retries before the reservation runs out, and no more than the store's own
     * ceiling.
     */
    public long storeCallTimeoutMillis(final long ceilingMillis) {
        return Math.min(ceilingMillis, durationMillis / LEASE_FRACTION_FOR_STORE_CALL);
    }

    /** Host name and process id, resolved once per JVM and only when a lease first asks. */
    private static final class DefaultInstanceId {

        private static final String VALUE = resolve();

        private static String resolve() {
            String host;
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (final UnknownHostException ex) {
                host = System.getenv().getOrDefault("HOSTNAME", "unknown-host");
            }
            return host + "@" + ProcessHandle.current().pid();
        }
    }
}
