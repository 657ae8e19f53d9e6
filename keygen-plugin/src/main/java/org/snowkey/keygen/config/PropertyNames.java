package org.snowkey.keygen.config;

import java.util.Set;

/** The key generator props: the public contract, spelled as users write them in ShardingSphere YAML. */
public final class PropertyNames {

    public static final String WORKER_ID = "worker-id";

    public static final String WORKER_ID_BITS = "worker-id-bits";

    public static final String SEQUENCE_LOW_BITS = "sequence-low-bits";

    public static final String EPOCH = "epoch";

    public static final String MAX_TOLERATE_TIME_DIFFERENCE_MILLISECONDS = "max-tolerate-time-difference-milliseconds";

    public static final String SEQUENCE_SCOPE = "sequence-scope";

    public static final String MAX_TIME_CACHE_MILLISECONDS = "max-time-cache-milliseconds";

    public static final String MAX_WORKER_IDS_PER_INSTANCE = "max-worker-ids-per-instance";

    public static final String LEASE_REGISTRY = "lease-registry";

    public static final String LEASE_POOL = "lease-pool";

    public static final String LEASE_DURATION_MILLISECONDS = "lease-duration-milliseconds";

    public static final String LEASE_ACQUIRE_TIMEOUT_MILLISECONDS = "lease-acquire-timeout-milliseconds";

    public static final String INSTANCE_ID = "instance-id";

    /** Props of the generator itself. */
    public static final Set<String> GENERATOR = Set.of(WORKER_ID, WORKER_ID_BITS, SEQUENCE_LOW_BITS, EPOCH,
            MAX_TOLERATE_TIME_DIFFERENCE_MILLISECONDS, SEQUENCE_SCOPE, MAX_TIME_CACHE_MILLISECONDS, MAX_WORKER_IDS_PER_INSTANCE);

    /** Props every lease backend shares; each backend adds its own. */
    public static final Set<String> SHARED_LEASE = Set.of(LEASE_REGISTRY, LEASE_POOL, LEASE_DURATION_MILLISECONDS,
            LEASE_ACQUIRE_TIMEOUT_MILLISECONDS, INSTANCE_ID);

    private PropertyNames() {
    }
}
