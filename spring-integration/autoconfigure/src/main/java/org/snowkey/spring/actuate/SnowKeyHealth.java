package org.snowkey.spring.actuate;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseStatus;
import org.snowkey.keygen.segment.SegmentStatus;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.spring.SnowKeyIdGenerator;

/**
 * The {@code snowkey} health verdict and its details, apart from any Spring Boot health API so that the Boot 3 and
 * the Boot 4 indicators report exactly the same thing.
 *
 * <p>UP while a worker id is held and ids can be issued on it. DOWN when the lease is lost, revoked or released, when
 * its reserved ceiling lies in the past (renewals have failed for a whole lease and new ids would fail closed), or
 * when the generator bean is closed, and when keys of a live segment sequence cannot be had ({@link SegmentHealth}:
 * stopped for good, or no keys left while its allocator fails).
 *
 * <p>{@code workerId} is the scope's own lease's; {@code workerIds} every worker id the generator issues on now,
 * the extra ones a hot generator leased of its pool included (one entry while it is not hot, none while no worker id is
 * held).
 *
 * <p>Details hold only what applies: a static worker id (set with {@code snowkey.worker-id}, or 0 when nothing is
 * configured) has no pool, no expiry, no ceiling and no renewals, so it reports none; {@code segments} appears only
 * while segment sequences exist (runway, step, fetch latency and failures of each). Spring Boot rejects a null
 * detail (and then logs a stack trace and reports DOWN on every call), so no value here is ever null.
 *
 * @param up whether the component is UP
 * @param details what the component shows, in a stable order, never with a null value
 */
public record SnowKeyHealth(boolean up, Map<String, Object> details) {

    public SnowKeyHealth {
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    /** The health of {@code generator} and of the JVM's segment sequences at {@code nowMillis}. */
    public static SnowKeyHealth of(final SnowKeyIdGenerator generator, final long nowMillis) {
        return of(generator, SegmentRuntime.get().statuses(), nowMillis);
    }

    /** The health of {@code generator} and of these segment sequences at {@code nowMillis}. */
    public static SnowKeyHealth of(final SnowKeyIdGenerator generator, final List<SegmentStatus> segments, final long nowMillis) {
        LeaseStatus status = generator.leaseStatus();
        boolean leased = status.pool() != null;
        boolean bounded = status.ceilingMillis() >= 0 && status.ceilingMillis() != LeaseGrant.UNBOUNDED;
        boolean ceilingPassed = bounded && status.ceilingMillis() < nowMillis;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("workerId", status.workerId());
        details.put("workerIds", generator.workerIds());
        putIfPresent(details, "registry", SnowKeyDescriptors.shown(status.registry()));
        if (leased) {
            details.put("pool", status.pool());
            putInstant(details, "leaseExpiresAt", status.expiresAtMillis());
            if (bounded) {
                details.put("reservedCeiling", Instant.ofEpochMilli(status.ceilingMillis()).toString());
            }
            details.put("renewals", status.renewals());
            details.put("renewalFailures", status.renewalFailures());
        } else {
            details.put("lease", "none: a static worker id never expires; no other process may use it");
        }
        String problem = status.problem();
        if (ceilingPassed && status.healthy()) {
            problem = "the lease ceiling " + Instant.ofEpochMilli(status.ceilingMillis()) + " has passed: renewals are failing and new ids fail closed";
        }
        if (generator.isClosed()) {
            problem = "the SnowKey generator bean is closed";
        }
        String segmentProblem = SegmentHealth.problem(segments);
        if (!segments.isEmpty()) {
            details.put("segments", SegmentHealth.details(segments));
        }
        if (problem == null) {
            problem = segmentProblem;
        } else if (segmentProblem != null) {
            problem = problem + "; " + segmentProblem;
        }
        if (problem != null) {
            details.put("problem", SnowKeyDescriptors.shown(problem));
        }
        return new SnowKeyHealth(status.healthy() && !ceilingPassed && !generator.isClosed() && segmentProblem == null, details);
    }

    private static void putIfPresent(final Map<String, Object> details, final String name, final Object value) {
        if (value != null) {
            details.put(name, value);
        }
    }

    private static void putInstant(final Map<String, Object> details, final String name, final long epochMillis) {
        if (epochMillis >= 0) {
            details.put(name, Instant.ofEpochMilli(epochMillis).toString());
        }
    }
}
