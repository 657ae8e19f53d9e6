package org.snowkey.lease;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyReader;

/**
 * The lease props every registry shares, as a backend uses them: {@link LeaseTerms} (parsed and validated once, by
 * the plugin) with the instance id resolved.
 *
 * @param pool the pool name ({@code lease-pool})
 * @param durationMillis how long a lease lasts without renewal (see {@link LeaseTerms} for the trade-off)
 * @param acquireTimeoutMillis how long acquisition retries before failing
 * @param instanceId who holds the lease, for operators ({@code instance-id}, default host name and process id)
 */
public record LeaseSettings(String pool, long durationMillis, long acquireTimeoutMillis, String instanceId) {

    public LeaseSettings {
        if (durationMillis < LeaseTerms.MIN_DURATION_MILLIS) {
            throw new IllegalArgumentException("lease duration below " + LeaseTerms.MIN_DURATION_MILLIS + " ms: " + durationMillis);
        }
    }

    /**
     * Reads the shared lease props (for the operations tools; a key generator's are parsed once by the plugin).
     *
     * @throws InvalidSettingException naming the prop and the value
     */
    public static LeaseSettings parse(final PropertyReader reader) {
        return of(LeaseTerms.parse(reader));
    }

    /** The terms as parsed, with the default instance id where none is set. */
    public static LeaseSettings of(final LeaseTerms terms) {
        return new LeaseSettings(terms.pool(), terms.durationMillis(), terms.acquireTimeoutMillis(),
                terms.instanceId() == null ? defaultInstanceId() : terms.instanceId());
    }

    /** Host name and process id: unique among live processes, and tells an operator where to look. */
    public static String defaultInstanceId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (final UnknownHostException ex) {
            host = System.getenv().getOrDefault("HOSTNAME", "unknown-host");
        }
        return host + "@" + ProcessHandle.current().pid();
    }

    /** Renewal period: a third of the lease, so two renewals may fail before the reservation runs out. */
    public long renewIntervalMillis() {
        return Math.max(1, durationMillis / 3);
    }

    /** Retry period after a failed renewal or acquisition attempt: often enough to use a short recovery. */
    public long retryIntervalMillis() {
        return Math.max(50, Math.min(1_000, durationMillis / 10));
    }
}
